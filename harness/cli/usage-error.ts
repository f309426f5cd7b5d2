// A command line the user must fix: the command prints the message and exits 2. In a module of
// its own so that `apc serve` does not load `apc certify` (and with it vitest) to use it.
export class UsageError extends Error {}

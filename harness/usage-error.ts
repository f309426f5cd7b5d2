// A mistake the user must fix (a flag, a profile, a requirement id, a report folder, Docker):
// the command prints the message after its name and exits 2 (harness/cli/command.ts). Each room's
// own kind of such mistake (ProfileError, CatalogueError, ReportError, ...) extends it, so a
// command catches this one type.
export class UsageError extends Error {}

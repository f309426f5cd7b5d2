// The kinds of run the waits section measures (`--waits-targets`). On their own, away from
// revision-waits.ts, so that `npm run bench` checks its options before it loads the harness.
export const WAIT_TARGETS = ['accepting', 'budgeted', 'busy', 'busy-budgeted', 'busy-spread'] as const;
export type WaitTarget = (typeof WAIT_TARGETS)[number];

// Revision statuses. The spec shows only DEPLOYED (the target of polling) and "any status
// containing FAILED" (spec 3); the full list is the field notes' (CP-REVL-009), as a real
// command-line client reads it. The suites' revision waits and `apc init` read them from here.

/** Every revision status the field notes list. */
export const REVISION_STATUSES = ['CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING', 'AWAITING_DEPLOY', 'DEPLOYING', 'CREATE_FAILED', 'BUILD_FAILED', 'DEPLOY_FAILED', 'DEPLOYED', 'SKIPPED', 'INTERRUPTED', 'UNKNOWN'];

export const isFailed = (status: unknown): boolean => typeof status === 'string' && status.includes('FAILED');

/**
 * A revision that will not change again: DEPLOYED, a status containing FAILED (spec 3), or, as a
 * real command-line client treats them, SKIPPED and INTERRUPTED (a newer revision superseded it).
 */
export const isTerminal = (status: unknown): status is string =>
  status === 'DEPLOYED' || isFailed(status) || status === 'SKIPPED' || status === 'INTERRUPTED';

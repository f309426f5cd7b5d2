// The words every floor shares, declared once: the spec's three interfaces, the RFC 2119 levels
// of its rules, a requirement's status in a report, a run's verdict, and the families of rules
// a deliberate fault (a mutant) is filed under. The harness, the reports
// and the compliance-report schema all take them from here.

export const INTERFACES = ['control-plane', 'agent-server', 'experiment-upload'] as const;
export type InterfaceName = (typeof INTERFACES)[number];

export const LEVELS = ['MUST', 'SHOULD', 'MAY'] as const;
export type Level = (typeof LEVELS)[number];

export const STATUSES = ['passed', 'failed', 'blocked', 'skipped', 'not-applicable', 'expected-failure', 'blocked-by-expected-failure', 'untested'] as const;
export type RequirementStatus = (typeof STATUSES)[number];

export const VERDICTS = ['certified', 'passed', 'no-regressions', 'incomplete', 'not-certified', 'error', 'interrupted'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The rule families the mutants are grouped by in the selftest's matrix. */
export const FAMILIES = [
  'revision triggers',
  'immutability',
  'listing',
  'deletion',
  'errors',
  'keys and tenants',
  'resource_spec',
  'create and sources',
  'revisions',
  'assistant versions',
  'assistants and threads',
  'runs',
  'sse',
  'experiments',
] as const;
export type Family = (typeof FAMILIES)[number];

// What a conformance suite imports, and all it imports of the harness (eslint.config.js holds
// suites/ to this file): the test wrapper, the Check with its checks, and the few harness facts a
// check needs (what an exchange answered, the SSE checks, the deletion wait, the profile's tenants).
export { requirement, type RequirementOptions, type TestCost } from './requirement.ts';
export { Check, type PropertyOptions, type PollOptions } from './check.ts';
export { byLimit, type Needs, type Handed, type Owner } from '../budget/needs.ts';
export { ConformanceFailure, type FailureSpec, type FailureRecord } from './failure.ts';
export type { RunContext } from './run-context.ts';
export { runOfCollectedFile } from './run-of-file.ts';
export type { Exchange } from '../http/exchange.ts';
export type { Auth } from '../http/client.ts';
export { describeResponse } from '../http/curl.ts';
export type { SseResult, SseEvent } from '../sse/reader.ts';
export * from '../sse/checker.ts';
export { foreignTenant, type TargetProfile } from '../profile/profile.ts';
export { AWAITING_DELETE, deleteBoundMs, untilGone, type Gone } from './awaiting-delete.ts';
export { BUSY_DETAIL, learnBusyPatchRefused } from './learned.ts';

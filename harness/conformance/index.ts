// What a conformance suite imports.
export { requirement, type RequirementOptions } from './requirement.ts';
export { Check, type PropertyOptions, type PollOptions } from './check.ts';
export { ConformanceFailure, type FailureSpec, type FailureRecord } from './failure.ts';
export type { RunContext } from './run-context.ts';
export type { Exchange } from '../http/exchange.ts';
export type { SseResult, SseEvent } from '../sse/reader.ts';

// One request and what came back, as recorded for failures and reports. Bodies are kept as text
// (what was on the wire) plus the parsed JSON when it parsed.
import type { InterfaceName } from '../profile/profile.ts';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Raw body text, when there was one. */
  body?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed body when it was JSON; undefined otherwise. */
  json?: unknown;
}

export interface Exchange {
  interface: InterfaceName;
  request: RecordedRequest;
  /** Absent when no response arrived (refused connection, timeout). */
  response?: RecordedResponse;
  /** Why no complete response arrived. */
  error?: string;
  startedAt: string;
  durationMs: number;
}

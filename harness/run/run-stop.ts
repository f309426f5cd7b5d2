// How a run stops before its end: a first SIGINT or SIGTERM, or `--max-time`, asks the run to
// stop (the suites end where they are, what the run created is deleted, a partial report is
// written, exit 130); a second signal exits at once.
import type { RequirementResult } from '../report/compliance.ts';

export interface StopRequest {
  /** Settles with the reason once the run must stop. */
  readonly requested: Promise<string>;
}

/** Listens for SIGINT and SIGTERM for as long as `body` runs. */
export async function withStopSignals<T>(body: (stop: StopRequest) => Promise<T>): Promise<T> {
  let request: (reason: string) => void = () => undefined;
  const requested = new Promise<string>((resolve) => (request = resolve));
  let received = 0;
  const handler = (signal: NodeJS.Signals) => {
    received += 1;
    if (received > 1) process.exit(130);
    request(`the run was interrupted (${signal})`);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  try {
    return await body({ requested });
  } finally {
    // Once a stop was asked for, the handler stays: a second signal while the run winds down
    // (cleanup, the report, workers closing) must still exit at once with 130, not kill the process.
    if (received === 0) {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    }
  }
}

/** `--max-time`: seconds, or a number with s, m or h. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  const factor = { s: 1_000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 's' | 'm' | 'h'];
  const ms = Math.round(Number(match[1]) * factor);
  return ms > 0 ? ms : undefined;
}

const DEADLINE_PASSED = 'the run passed ';

/**
 * How to leave at once while the run winds down. After a signal the next Ctrl-C exits; after
 * --max-time no Ctrl-C was pressed, and the first one only asks for the stop already under way.
 */
export function exitAtOnceHint(reason: string): string {
  return reason.startsWith(DEADLINE_PASSED) ? 'press Ctrl-C twice to exit at once' : 'press Ctrl-C again to exit at once';
}

/** A stop request that also settles when `ms` pass (when given); `cancel` clears the timer. */
export function withDeadline(stop: StopRequest | undefined, ms: number | undefined, label: string): { requested: Promise<string> | undefined; cancel(): void } {
  if (ms === undefined) return { requested: stop?.requested, cancel: () => undefined };
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`${DEADLINE_PASSED}${label} and was stopped`), ms);
  });
  return { requested: Promise.race([passed, ...(stop ? [stop.requested] : [])]), cancel: () => clearTimeout(timer) };
}

/** How the reason of a requirement no ended test judged starts (`apc certify --resume` runs those). */
export const NOT_RUN = 'not run: ';

/** Requirements no ended test judged say so, instead of "no conformance test names this requirement". */
export function markNotRun(results: RequirementResult[], reason: string): RequirementResult[] {
  return results.map((r) => (r.status === 'untested' && r.tests.length === 0 ? { ...r, reason: `${NOT_RUN}${reason}` } : r));
}

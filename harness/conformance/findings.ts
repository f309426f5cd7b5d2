// What a test found besides the failure it stopped at: checks it held back (`observe`), and
// values outside their enum in any of its answers (requirements/attribution.yaml), and checks of
// other rules it made on its way without stopping (`observeOn`). A held-back
// failure of its own rule fails it when its body ends; if it stopped first at another rule's
// failure, the held-back ones are shown as "also seen" (not judged). A value outside its enum
// fails its rule wherever it is seen: the test's own rule fails the test, another rule's failure
// is recorded under that rule (report/blocked-roots.ts) without touching the test's verdict.
import { toCurl, describeResponse } from '../http/curl.ts';
import type { Exchange } from '../http/exchange.ts';
import { valuesOutsideIn } from './attribution.ts';
import type { Check } from './check.ts';
import { reproCommand } from './repro-command.ts';
import { ConformanceFailure, describeValue, type FailureRecord, type FailureSpec, type SeenRecord } from './failure.ts';

/** The requirements a spec names: its own, or every requirement of the test. */
const named = (spec: FailureSpec, ids: readonly string[]) => (spec.requirement ? [spec.requirement] : [...ids]);

/** A finding as the report keeps it: redacted, with the exchange it was seen in and a command to see it again. */
function recordOf(check: Check, spec: FailureSpec, ids: readonly string[], exchanges: readonly Exchange[]): FailureRecord {
  const requirements = named(spec, ids);
  return check.redactor.value({
    requirements,
    message: spec.message,
    repro: reproCommand(check, requirements),
    exchanges: exchanges.map((e) => ({ curl: toCurl(e), response: describeResponse(e) })),
    ...(spec.expected !== undefined ? { expected: describeValue(spec.expected)! } : {}),
    ...(spec.seen !== undefined ? { seen: describeValue(spec.seen)! } : {}),
  });
}

/**
 * Once the body ended without a failure: the failure the test still has, when it has one (a value
 * outside its enum that breaks one of its own rules, or a check it held back).
 */
export function failureAtEnd(check: Check): ConformanceFailure | undefined {
  const own = valuesOutsideIn(check.recorder.exchanges).find((v) => check.ids.includes(v.spec.requirement));
  if (own) return new ConformanceFailure(own.spec);
  const held = check.observed[0];
  return held ? new ConformanceFailure(held) : undefined;
}

export interface SideFindings {
  /** Values outside their enum that break another rule than the test's own, and than the one it stopped at. */
  attributed?: FailureRecord[];
  /** Held-back checks of the test's own rules, when it stopped at another rule's failure: not judged. */
  alsoSeen?: SeenRecord[];
  /** Held-back checks, when it stopped at one of its own rules: judged failures, beside that one. */
  failures?: FailureRecord[];
}

/** What goes into the test's meta besides the failure it stopped at (`stoppedAt`, when it did). */
export function sideFindings(check: Check, stoppedAt: FailureRecord | undefined): SideFindings {
  const ids = check.ids;
  const stoppedOn = new Set(stoppedAt?.requirements ?? []);
  const attributed = [...valuesOutsideIn(check.recorder.exchanges), ...check.seenAside]
    .filter((v) => !ids.includes(v.spec.requirement) && !stoppedOn.has(v.spec.requirement))
    .map((v) => recordOf(check, v.spec, ids, [v.exchange]));
  const found: SideFindings = attributed.length > 0 ? { attributed } : {};
  // The failure it stopped at is itself one of the held-back checks when the body ended without another.
  const held = check.observed.filter((spec) => !stoppedAt || spec.message !== stoppedAt.message);
  if (!stoppedAt || held.length === 0) return found;
  const ownStop = stoppedAt.requirements.some((id) => ids.includes(id));
  if (ownStop) return { ...found, failures: held.map((spec) => recordOf(check, spec, ids, [])) };
  const alsoSeen = held.map((spec): SeenRecord =>
    check.redactor.value({ requirements: named(spec, ids), message: spec.message, ...(spec.seen !== undefined ? { seen: describeValue(spec.seen)! } : {}) }),
  );
  return { ...found, alsoSeen };
}

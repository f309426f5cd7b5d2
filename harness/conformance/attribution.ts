// A failure recorded under the rule whose statement it breaks (requirements/attribution.yaml):
// a check or step that fails on a refusal the mapping names fails that rule, whoever met it; and a
// value outside its enum in any answer of a test fails its rule, whether or not the test stopped.
import { loadCatalogue } from '../catalogue.ts';
import { refusalOf, valuesOutside, type Attribution } from '../attribution.ts';
import type { Exchange } from '../http/exchange.ts';
import type { FailureSpec } from './failure.ts';

/** The catalogue's mapping (loadCatalogue keeps the catalogue it read, per folder). */
function mapping(): Attribution {
  return loadCatalogue().attribution ?? { refusals: [], values: [] };
}

/**
 * A failing spec on an exchange, named for the rule its refusal breaks when the mapping names
 * one (a 400 for a string stream_mode is AS-SSE-006's, not the run rule's the step relied on).
 */
export function attributed<S extends FailureSpec>(exchange: Exchange, spec: S): S {
  const found = refusalOf(mapping(), exchange, spec.requirement);
  if (!found || found.requirement === spec.requirement) return spec;
  const relied = spec.requirement ? `; the step relied on ${spec.requirement}` : '';
  return { ...spec, requirement: found.requirement, message: `${spec.message} (${found.what}: ${found.requirement}'s statement is broken${relied})` };
}

/** Each value outside its enum in these exchanges, once per rule and value, as a failing spec with the exchange it was seen in. */
export function valuesOutsideIn(exchanges: readonly Exchange[]): { spec: FailureSpec & { requirement: string }; exchange: Exchange }[] {
  const seen = new Set<string>();
  const found: { spec: FailureSpec & { requirement: string }; exchange: Exchange }[] = [];
  for (const exchange of exchanges) {
    for (const v of valuesOutside(mapping(), exchange)) {
      const key = `${v.requirement} ${JSON.stringify(v.value)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const { method, url } = exchange.request;
      found.push({
        exchange,
        spec: { requirement: v.requirement, message: `${v.what}: ${method} ${new URL(url).pathname} answered ${JSON.stringify(v.value)}.`, seen: v.value },
      });
    }
  }
  return found;
}

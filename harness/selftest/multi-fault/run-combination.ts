// Certifies one multi-fault combination: the reference started with every component's fault
// switch on, and in front of each interface the proxies of its proxy mutants, one behind the
// other (a request passes each in turn, its answer each on the way back). The certification
// covers every interface a component bends, whole, so a failure anywhere on them is seen.
import { referenceProfileFile, startReferenceTarget } from '../../reference/reference-target.ts';
import { startProxy } from '../../proxy/proxy.ts';
import type { InterfaceName } from '../../profile/profile.ts';
import { certifyInProcess } from '../certify-in-process.ts';
import type { RunRequest } from '../../run/plan.ts';
import type { RunSettings } from '../run-subject.ts';
import type { Mutant } from '../subjects.ts';
import type { Combination } from './combinations.ts';
import { scoreCombination, type CombinationScore } from './score.ts';

export interface CombinationRun extends CombinationScore {
  what: string;
  structural?: string;
  interfaces: InterfaceName[];
  verdict: string | undefined;
  durationMs: number;
  /** What went wrong when no report was written. */
  error?: string;
  /** The first failure of each requirement failed outside, and what blocked each requirement not found: why the score is what it is. */
  evidence: string[];
}

/** The combination's components, as mutants; an id that names none, or components of two modes, is a mistake of the table. */
export function componentsOf(combination: Combination, mutants: Map<string, Mutant>): Mutant[] {
  const components = combination.components.map((id) => {
    const found = mutants.get(id);
    if (!found) throw new Error(`multi-fault ${combination.id}: ${id} is no mutant of apc selftest`);
    return found;
  });
  const modes = new Set(components.map((c) => c.mode ?? 'hosted'));
  if (modes.size > 1) throw new Error(`multi-fault ${combination.id}: its components need different control-plane modes (${[...modes].join(', ')})`);
  return components;
}

/** `scope`: requirement patterns to certify instead of the whole interfaces (a test's cheap run). */
export async function runCombination(combination: Combination, components: Mutant[], settings: RunSettings, scope?: string[]): Promise<CombinationRun> {
  const interfaces = [...new Set(components.map((c) => c.interface))];
  const target = await startReferenceTarget({ mode: components[0]!.mode ?? 'hosted', faults: components.flatMap((c) => c.faults ?? []) });
  const [own, other] = target.grants;
  const keys = { apiKey: own!.key, otherApiKey: other!.key };
  const urls = { ...target.urls };
  const proxies = [];
  try {
    for (const c of components.filter((m) => m.proxy)) {
      const proxy = await startProxy(urls[c.interface], c.proxy!(keys));
      proxies.push(proxy);
      urls[c.interface] = proxy.url;
    }
    const request: RunRequest = {
      settings: {
        profileDocument: referenceProfileFile({ apply: target.apply, urls }),
        seed: String(settings.seed),
        runs: String(settings.runs),
        ...(settings.budget ? { budget: settings.budget } : {}),
      },
      interfaces: interfaces.join(','),
      ...(scope ? { requirements: [scope.join(',')] } : {}),
    };
    const bounds = {
      env: { APC_API_KEY: own!.key, APC_OTHER_API_KEY: other!.key },
      timeoutMs: settings.timeoutMs,
      ...(settings.signal ? { signal: settings.signal } : {}),
    };
    const run = await certifyInProcess(request, bounds, { allure: false, workers: 1, ...(settings.batches ? { suites: settings.batches } : {}) });
    const statuses = run.report?.requirements ?? [];
    const score = scoreCombination(combination.id, components, statuses);
    const shown = new Set([...score.outside, ...score.components.flatMap((c) => c.notFailed.map((n) => n.split(' ')[0]!))]);
    const evidence = statuses
      .filter((r) => shown.has(r.id))
      .map((r) => `${r.id} ${r.status}: ${r.failures[0]?.message ?? (r.blockedBy ? `blocked by ${r.blockedBy.join(', ')}` : (r.reason ?? ''))}`.slice(0, 400));
    return {
      ...score,
      evidence,
      what: combination.why,
      ...(combination.structural ? { structural: combination.structural } : {}),
      interfaces,
      verdict: run.report?.verdict,
      durationMs: run.durationMs,
      ...(run.report ? {} : { error: (run.stderr.trim() || `apc certify ended with code ${run.code} and wrote no report`).split('\n').slice(-5).join('\n') }),
    };
  } finally {
    for (const proxy of proxies.reverse()) await proxy.close();
    await target.close();
  }
}

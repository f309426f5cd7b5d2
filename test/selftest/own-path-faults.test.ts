// Faults seen on a third-party agent server and on proxies written outside this project (issue
// "Every deviation in one run"), each reproduced by a mutant of apc selftest: certified on the
// requirements it touches, it fails exactly the rules it breaks, whichever other rule's usual
// path it takes away; so do the combinations that server had, each fault under its own rule. The
// reference passes the same requirements. One kept suite worker for the file.
import { describe, expect, test } from 'vitest';
import type { ProxiedAnswer, ProxiedRequest, ProxyRules } from '../../harness/proxy/proxy.ts';
import { runSubject, type RunSettings } from '../../harness/selftest/run-subject.ts';
import { selftestSubjects } from '../../harness/selftest/subject-list.ts';
import type { Mutant, TargetKeys } from '../../harness/selftest/subjects.ts';
import { keptSuiteWorkers } from '../support/certify.ts';

// The test process's kept suite worker (test/support/certify.ts), shared with its other files.
const batches = keptSuiteWorkers().suites;
const settings: RunSettings = { runs: 3, seed: 1, seeds: 1, detectionRuns: 3, timeoutMs: 240_000, batches };

const mutants = new Map(selftestSubjects().flatMap((s) => (s.kind === 'mutant' ? [[s.id, s] as const] : [])));

function mutantOf(id: string): Mutant {
  const found = mutants.get(id);
  expect(found, `${id} is no mutant of apc selftest`).toBeDefined();
  return found!;
}

/** The proxies of several mutants of one interface in front of it at once: requests through each in turn, answers back through each. */
function together(ids: string[]): Mutant {
  const parts = ids.map(mutantOf);
  const proxy = (keys: TargetKeys): ProxyRules => {
    const rules = parts.map((m) => m.proxy!(keys));
    return {
      async request(r) {
        let current: ProxiedRequest | ProxiedAnswer = r;
        for (const rule of rules) if ('method' in current && rule.request) current = await rule.request(current);
        return current;
      },
      answer: (r, a) => rules.reduceRight((answer, rule) => (rule.answer ? rule.answer(r, answer) : answer), a),
    };
  };
  return {
    kind: 'mutant',
    id: ids.join('+'),
    what: parts.map((m) => m.what).join(' '),
    interface: parts[0]!.interface,
    family: parts[0]!.family,
    catches: [...new Set(parts.flatMap((m) => m.catches))],
    proxy,
  };
}

const VERSIONS = ['AS-ASST-*'];
const STREAMS = ['AS-SSE-*', 'AS-RUN-*', 'AS-ASST-002', 'AS-ASST-004', 'AS-GRAPH-001'];

/** Mutants (several: at once), and the requirements they are certified on; each must fail its `catches`. */
const CASES: [mutants: string[], scope: string[]][] = [
  // Spec 6: "Each event has an `event:` line naming the kind". Every stream is broken, so every
  // other stream rule is blocked by AS-SSE-002.
  [['as.event-kind-in-payload'], ['AS-SSE-*', 'AS-RUN-003']],
  // A refused string stream_mode is AS-SSE-006's failure; thread runs are judged with the list form.
  [['as.thread-string-mode-refused'], STREAMS],
  // Stateless streams without metadata and updates fail the rules naming those events; the rest are judged on thread streams and values.
  [['as.stateless-values-only'], STREAMS],
  [['as.set-latest-version-from-query'], VERSIONS],
  [['as.runs-ignore-context'], VERSIONS],
  // The version rules are judged through thread runs as well as stateless ones.
  [['as.thread-runs-use-newest-version'], VERSIONS],
  // A new thread is shown to start empty.
  [['as.thread-state-by-assistant'], ['AS-RUN-*', 'AS-SSE-011', 'AS-GRAPH-001']],
  [['as.update-fails'], VERSIONS],
  [['as.delete-answers-500'], VERSIONS],
  // The edges of limit and offset: an offset past the end, and limit 0.
  [['as.search-offset-clamped'], ['AS-SRCH-*', 'AS-ASST-001']],
  [['as.search-limit-zero-unbounded'], ['AS-SRCH-*', 'AS-ASST-001']],
  // As the third-party server had them: each deviation named, none hidden behind another's failure.
  [
    ['as.set-latest-version-from-query', 'as.stateless-values-only'],
    [...STREAMS, ...VERSIONS],
  ],
  [
    ['as.runs-ignore-context', 'as.stateless-values-only'],
    [...STREAMS, ...VERSIONS],
  ],
  [['as.update-fails', 'as.delete-answers-500'], VERSIONS],
];

describe.each(CASES)('%s', (ids, scope) => {
  test('fails exactly the requirements its faults break', async () => {
    const mutant = ids.length === 1 ? mutantOf(ids[0]!) : together(ids);
    const broken = await runSubject({ ...mutant, scope } satisfies Mutant, settings);
    expect(broken.error).toBeUndefined();
    expect(broken.failed.map((f) => f.id).sort()).toEqual([...mutant.catches].sort());
  }, 240_000);
});

test('the reference passes every requirement those cases are certified on', async () => {
  const scope = [...new Set(CASES.flatMap(([, s]) => s))];
  const reference = await runSubject({ kind: 'variation', id: 'reference', what: 'the reference as it is', interface: 'agent-server', scope }, settings);
  expect(reference.error).toBeUndefined();
  expect(reference.failed).toEqual([]);
  expect(reference.blocked).toEqual([]);
}, 240_000);

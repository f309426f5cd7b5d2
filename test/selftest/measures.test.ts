// The selftest's measures from made-up runs: each way a subject can miss its target is named.
import { describe, expect, test } from 'vitest';
import { measure } from '../../harness/selftest/measures.ts';
import type { SubjectRun } from '../../harness/selftest/run-subject.ts';
import type { HostileTarget, Mutant, Variation } from '../../harness/selftest/subjects.ts';

const mutant = (id: string, catches: string[]): Mutant => ({ kind: 'mutant', id, what: id, interface: 'control-plane', family: 'immutability', catches });
const variation = (id: string): Variation => ({ kind: 'variation', id, what: id, interface: 'agent-server' });
const hostile = (id: string, boundMs: number): HostileTarget => ({ kind: 'hostile', id, what: id, interface: 'control-plane', boundMs, start: async () => ({ url: '', close: async () => undefined }) });

function run(id: string, kind: SubjectRun['kind'], over: Partial<SubjectRun> = {}): SubjectRun {
  return { id, kind, what: id, interface: 'control-plane', code: 1, verdict: 'not-certified', durationMs: 1000, failed: [], blocked: [], ...over };
}
const failed = (...ids: string[]) => ids.map((id) => ({ id, level: 'MUST' as const, message: `${id} broke` }));

describe('apc selftest measures', () => {
  test('a mutant that fails exactly its declared requirements, in every seed, meets every target', () => {
    const m = measure([mutant('a', ['CP-IMM-001'])], [run('a', 'mutant', { failed: failed('CP-IMM-001'), blocked: failed('CP-IMM-002'), detection: { requirements: ['CP-IMM-001'], seeds: 20, caught: [...Array(20).keys()] } })]);
    expect(m.problems).toEqual([]);
    expect(m.mutationScore).toEqual({ caught: 1, total: 1 });
    expect(m.mutants[0]).toMatchObject({ status: 'caught', caughtBy: ['CP-IMM-001'], missed: [], outside: [], detection: { seeds: 20, caught: 20 } });
  });

  test('survived, partly caught, imprecise and rarely detected mutants are each a missed target', () => {
    const m = measure(
      [mutant('survivor', ['CP-IMM-001']), mutant('partly', ['CP-REV-001', 'CP-REV-002']), mutant('imprecise', ['CP-DEL-002']), mutant('rare', ['CP-SEQ-001'])],
      [
        run('survivor', 'mutant', { code: 0, verdict: 'certified' }),
        run('partly', 'mutant', { failed: failed('CP-REV-001') }),
        run('imprecise', 'mutant', { failed: failed('CP-DEL-002', 'CP-READ-001') }),
        run('rare', 'mutant', { failed: failed('CP-SEQ-001'), detection: { requirements: ['CP-SEQ-001'], seeds: 20, caught: [0, 3, 7] } }),
      ],
    );
    expect(m.mutationScore).toEqual({ caught: 2, total: 4 });
    expect(m.mutants.map((x) => x.status)).toEqual(['survived', 'partly caught', 'caught', 'caught']);
    expect(m.imprecise).toBe(1);
    expect(m.belowDetectionTarget).toBe(1);
    expect(m.problems).toEqual([
      'mutant survivor survived: CP-IMM-001 did not fail',
      'mutant partly partly caught: CP-REV-002 did not fail',
      'mutant imprecise: failed outside its declared requirements: CP-READ-001 (CP-READ-001 broke)',
      'mutant rare: caught in 3 of 20 seeds',
    ]);
  });

  test('a variation with a failed or blocked MUST is a false alarm; SHOULD failures are notes', () => {
    const m = measure(
      [variation('fine'), variation('alarm'), variation('blocked')],
      [
        run('fine', 'variation', { code: 0, verdict: 'certified', failed: [{ id: 'AS-SSE-004', level: 'MAY', message: 'second' }] }),
        run('alarm', 'variation', { failed: failed('AS-SSE-001') }),
        run('blocked', 'variation', { blocked: failed('AS-RUN-001') }),
      ],
    );
    expect(m.falseAlarms).toBe(2);
    expect(m.variations[0]).toMatchObject({ alarms: [], notes: ['AS-SSE-004 (MAY)'] });
    expect(m.problems).toEqual(['variation alarm: false alarm: AS-SSE-001: AS-SSE-001 broke', 'variation blocked: false alarm: AS-RUN-001: AS-RUN-001 broke']);
  });

  test('a hostile run past its bound, or without a report, misses its target', () => {
    const m = measure(
      [hostile('quick', 60_000), hostile('slow', 60_000), hostile('lost', 60_000)],
      [run('quick', 'hostile', { durationMs: 20_000 }), run('slow', 'hostile', { durationMs: 61_000 }), run('lost', 'hostile', { verdict: undefined, code: null, error: 'killed' })],
    );
    expect(m.hostile.map((h) => h.ok)).toEqual([true, false, false]);
    expect(m.problems).toEqual(['hostile slow: ended after 61000 ms, bound 60000 ms', 'hostile lost: killed']);
  });

  test('a run without a verdict is an error, never a catch', () => {
    const m = measure([mutant('crash', ['CP-IMM-001'])], [run('crash', 'mutant', { code: null, verdict: undefined, error: 'apc certify ended with code null and wrote no report' })]);
    expect(m.mutants[0]!.status).toBe('error');
    expect(m.mutationScore.caught).toBe(0);
  });
});

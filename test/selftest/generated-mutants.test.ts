// Generated protocol mutants: derived from the spec's types and endpoints alone, one selftest
// subject each; a seeded sample keeps `apc selftest` (and so `npm test`) short; a
// generated mutant is caught by any failure, and a survivor is a problem unless the reviewed list
// explains it. Their certifications run in selftest.test.ts (the default sample) and `apc selftest --generated all`.
import { describe, expect, test } from 'vitest';
import type { ProxiedAnswer, ProxiedRequest } from '../../harness/proxy/proxy.ts';
import { measure } from '../../harness/selftest/measures.ts';
import { summaryLines } from '../../harness/selftest/report.ts';
import { generatedMutants, operatorOf, OPERATORS } from '../../harness/selftest/mutants/spec-derived/derive.ts';
import { EXPLAINED, explanationOf } from '../../harness/selftest/mutants/spec-derived/explained.ts';
import { QUICK_GENERATED, sampleGenerated } from '../../harness/selftest/mutants/spec-derived/sample.ts';
import type { SubjectRun } from '../../harness/selftest/run-subject.ts';
import { selftestSubjects } from '../../harness/selftest/subject-list.ts';
import { isGenerated } from '../../harness/selftest/subjects.ts';
import { selector } from '../../harness/catalogue.ts';

const generated = generatedMutants();

describe('generated protocol mutants', () => {
  test('every operator of the issue is derived, for every interface, with unique ids', () => {
    expect(new Set(generated.map(operatorOf))).toEqual(new Set(OPERATORS));
    expect(new Set(generated.map((m) => m.interface))).toEqual(new Set(['control-plane', 'agent-server', 'experiment-upload']));
    expect(new Set(generated.map((m) => m.id)).size).toBe(generated.length);
    expect(generated.every(isGenerated)).toBe(true);
    // From the Deployment schema (2.1): each required field dropped, each field of another type.
    for (const field of ['name', 'source', 'id', 'tenant_id', 'latest_revision_id', 'active_revision_id']) {
      expect(generated.map((m) => m.id)).toContain(`gen.deployment.${field}.dropped`);
      expect(generated.map((m) => m.id)).toContain(`gen.deployment.${field}.wrong-type`);
    }
    expect(generated.map((m) => m.id)).toContain('gen.deployment.status.outside-enum');
  });

  test('a stale-value mutant shows the first answer about a resource in later ones; another resource keeps its own', () => {
    const rules = generated.find((m) => m.id === 'gen.assistant.context.stale')!.proxy!({ apiKey: 'a', otherApiKey: 'b' });
    const request: ProxiedRequest = { method: 'PATCH', path: '/assistants/x', headers: {}, body: Buffer.from('{}') };
    const answer = (body: object): ProxiedAnswer => ({ status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) });
    const seen = (body: object) => JSON.parse(rules.answer!(request, answer(body)).body.toString()) as { context: unknown };
    expect(seen({ assistant_id: '11111111-1111-4111-8111-111111111111', context: { v: 1 } }).context).toEqual({ v: 1 });
    expect(seen({ assistant_id: '11111111-1111-4111-8111-111111111111', context: { v: 2 } }).context).toEqual({ v: 1 });
    expect(seen({ assistant_id: '22222222-2222-4222-8222-222222222222', context: { v: 3 } }).context).toEqual({ v: 3 });
  });

  test('the quick sample is the same for the same seed, and --generated all keeps every one', () => {
    const subjects = selftestSubjects();
    const pick = (seed: number) => sampleGenerated(subjects, QUICK_GENERATED, seed).filter(isGenerated).map((s) => s.id);
    expect(pick(1)).toHaveLength(QUICK_GENERATED);
    expect(pick(1)).toEqual(pick(1));
    expect(pick(2)).not.toEqual(pick(1));
    expect(sampleGenerated(subjects, Infinity, 1)).toHaveLength(subjects.length);
    // The hand-written subjects are never sampled out.
    expect(sampleGenerated(subjects, QUICK_GENERATED, 1).filter((s) => !isGenerated(s))).toHaveLength(subjects.filter((s) => !isGenerated(s)).length);
  });

  test('every reviewed explanation names generated mutants and says why', () => {
    for (const e of EXPLAINED) {
      expect(generated.some((m) => selector([e.ids])(m.id)), e.ids).toBe(true);
      expect(e.why.length).toBeGreaterThan(40);
    }
    expect(explanationOf('gen.deployment.name.stale')?.place).toBe('not observable');
  });

  test('a generated mutant is caught by any failure; an unexplained survivor is a problem, an explained one is not', () => {
    const [caught, survivor] = generated.filter((m) => !explanationOf(m.id));
    const explained = generated.find((m) => explanationOf(m.id))!;
    const run = (id: string, failed: string[]): SubjectRun => ({ id, kind: 'mutant', what: id, interface: 'control-plane', code: failed.length ? 1 : 0, verdict: failed.length ? 'not-certified' : 'certified', durationMs: 1, failed: failed.map((f) => ({ id: f, level: 'MUST', message: f })), blocked: [] });
    const m = measure([caught!, survivor!, explained], [run(caught!.id, ['CP-READ-001']), run(survivor!.id, []), run(explained.id, [])]);
    expect(m.generated.map((g) => g.status)).toEqual(['caught', 'survived', 'explained']);
    expect(m.generatedScore).toEqual({ caught: 1, explained: 1, total: 3, derived: generated.length });
    expect(summaryLines(m)[1]).toBe(`generated mutants   1/3 caught (33.3%), 1 survivors explained, 1 unexplained (a seeded sample of the ${generated.length} derived; --generated all runs each)`);
    expect(m.mutationScore.total).toBe(0);
    expect(m.problems).toEqual([expect.stringContaining(`generated mutant ${survivor!.id} survived`)]);
  });
});

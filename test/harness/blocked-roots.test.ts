// Each failure under the rule it breaks, and "blocked" naming root causes only (issue 37, items
// 2 to 5): the statuses buildResults gives when tests stop at other rules' failures.
import { describe, expect, test } from 'vitest';
import type { Catalogue, Requirement } from '../../harness/catalogue.ts';
import { buildResults, verdictOf, universeOf, type TestOutcome } from '../../harness/report/compliance.ts';
import { resolveRoots } from '../../harness/report/blocked-roots.ts';
import type { RequirementResult } from '../../schemas/compliance-report.ts';

const req = (id: string, level: Requirement['level'] = 'MUST'): Requirement => ({
  id,
  level,
  interface: 'agent-server',
  section: '4.2',
  statement: `Statement of ${id}.`,
  tags: [],
  needs: [],
  source: 'spec',
});

const catalogueOf = (reqs: Requirement[]): Catalogue => ({
  version: '1.0.0',
  specVersion: '0.1.0',
  hash: 'h',
  requirements: reqs,
  exclusions: [],
  gates: {},
  byId: new Map(reqs.map((r) => [r.id, r])),
});

const outcome = (requirements: string[], state: TestOutcome['state'], extra: Partial<TestOutcome> = {}): TestOutcome => ({
  title: requirements.join(' '),
  file: 'suites/agent-server/x.suite.ts',
  requirements,
  state,
  failures: [],
  checks: state === 'passed' ? Object.fromEntries(requirements.map((id) => [id, { ran: 1, held: 1 }])) : {},
  properties: [],
  durationMs: 1,
  ...extra,
});

const failure = (id: string, message = 'boom', extra: object = {}) => ({ requirements: [id], message, repro: 'apc certify', exchanges: [], ...extra });

function results(ids: string[], outcomes: TestOutcome[]) {
  const reqs = ids.map((id) => req(id));
  return buildResults({ catalogue: catalogueOf(reqs), selected: reqs, errors: [], outcomes }).requirements;
}
const byId = (list: RequirementResult[]) => Object.fromEntries(list.map((r) => [r.id, r]));

describe('a failure is recorded under the rule it breaks, whoever met it', () => {
  test("wrong rule is blamed: a string stream_mode refused in the run rule's test fails AS-SSE-006, and the run rule is blocked by it, not failed", () => {
    const got = byId(
      results(
        ['AS-RUN-001', 'AS-SSE-006'],
        [
          // The run rule's test met the refusal first: the failure names AS-SSE-006 (the attribution's doing).
          outcome(['AS-RUN-001'], 'failed', {
            failures: [failure('AS-SSE-006', 'POST /threads/t/runs/stream did not stream (a run with stream_mode given as a string was refused)')],
          }),
          outcome(['AS-SSE-006'], 'passed', { checks: {} }),
        ],
      ),
    );
    expect(got['AS-SSE-006']).toMatchObject({ status: 'failed' });
    expect(got['AS-SSE-006']!.failures[0]).toMatchObject({ foundIn: 'AS-RUN-001', message: expect.stringMatching(/stream_mode given as a string/) });
    expect(got['AS-RUN-001']).toMatchObject({ status: 'blocked', blockedBy: ['AS-SSE-006'] });
  });

  test('verdict without a failure: a step of another test that saw the enum rule broken fails it, though its own test passed', () => {
    const list = results(
      ['CP-LIFE-003', 'CP-REVL-009'],
      [
        outcome(['CP-LIFE-003'], 'failed', { failures: [failure('CP-REVL-009', 'Revision r has status "BUILD_ERROR", outside the revision statuses')] }),
        outcome(['CP-REVL-009'], 'passed'),
      ],
    );
    const got = byId(list);
    expect(got['CP-REVL-009']!.status).toBe('failed');
    expect(got['CP-LIFE-003']).toMatchObject({ status: 'blocked', blockedBy: ['CP-REVL-009'] });
    const verdict = verdictOf(list, [], universeOf(catalogueOf(list.map((r) => req(r.id)))));
    expect(verdict.verdict).toBe('not-certified');
    expect(list.filter((r) => r.status === 'failed').length).toBeGreaterThanOrEqual(1);
  });

  test('a value outside its enum seen by a test that passed still fails its rule, and the test keeps its pass', () => {
    const got = byId(
      results(
        ['CP-LIFE-001', 'CP-REVL-009'],
        [
          outcome(['CP-LIFE-001'], 'passed', { attributed: [failure('CP-REVL-009', 'a listed revision status is outside')] }),
          outcome(['CP-REVL-009'], 'passed'),
        ],
      ),
    );
    expect(got['CP-REVL-009']!.status).toBe('failed');
    expect(got['CP-LIFE-001']!.status).toBe('passed');
  });
});

describe('a test that judges two rules on one subject', () => {
  const lifeOutcome = (extra: Partial<TestOutcome>) =>
    outcome(['CP-LIFE-003', 'CP-LIFE-005'], 'failed', {
      failures: [failure('CP-LIFE-005', 'Revision r ended with status BUILD_FAILED, and the deployment names it as its active_revision_id.')],
      checks: { 'CP-LIFE-003': { ran: 1, held: 1 }, 'CP-LIFE-005': { ran: 1, held: 0 } },
      ...extra,
    });

  test('the rule judged whole passes when the test ran to its end and failed on the other rule it held back', () => {
    const got = byId(results(['CP-LIFE-003', 'CP-LIFE-005'], [lifeOutcome({ bodyEnded: true })]));
    expect(got['CP-LIFE-003']!.status).toBe('passed');
    expect(got['CP-LIFE-005']!.status).toBe('failed');
  });

  test('a test that stopped part-way leaves its other rule blocked: its checks may not all have run', () => {
    const got = byId(results(['CP-LIFE-003', 'CP-LIFE-005'], [lifeOutcome({})]));
    expect(got['CP-LIFE-003']).toMatchObject({ status: 'blocked', blockedBy: ['CP-LIFE-005'] });
  });
});

describe('blocked by names root causes only', () => {
  test('blocked by points at a blocked rule no more: the chain is followed to the failed rule', () => {
    const list: RequirementResult[] = [
      { id: 'AS-ASST-002', status: 'blocked', blockedBy: ['AS-SSE-006'] },
      { id: 'AS-SSE-006', status: 'blocked', blockedBy: ['AS-RUN-003'] },
      { id: 'AS-RUN-003', status: 'failed' },
      { id: 'AS-SRCH-002', status: 'blocked', blockedBy: ['AS-ASST-002', 'AS-RUN-003'] },
    ].map(
      (r) =>
        ({
          level: 'MUST',
          interface: 'agent-server',
          section: '4',
          statement: 's',
          tests: [],
          failures: [failure(r.id)],
          checks: { ran: 0, held: 0 },
          ...r,
        }) as RequirementResult,
    );
    resolveRoots(list);
    const got = byId(list);
    expect(got['AS-ASST-002']!.blockedBy).toEqual(['AS-RUN-003']);
    expect(got['AS-SSE-006']!.blockedBy).toEqual(['AS-RUN-003']);
    expect(got['AS-SRCH-002']!.blockedBy).toEqual(['AS-RUN-003']);
  });

  test('a requirement whose blockers lead to no failed rule is not judged (skipped, with the reason), never failed nor blocked by a rule that passed', () => {
    const list = [
      { id: 'CP-A-001', status: 'blocked', blockedBy: ['CP-A-002'], failures: [failure('CP-A-002', 'Revision r ended FAILED and is active.')] },
      { id: 'CP-A-002', status: 'passed' },
      // A chain through a blocked rule that itself reaches no failed one.
      { id: 'CP-A-003', status: 'blocked', blockedBy: ['CP-A-001'], failures: [failure('CP-A-001')] },
    ].map(
      (r) =>
        ({
          level: 'MUST',
          interface: 'control-plane',
          section: '3',
          statement: 's',
          tests: [],
          failures: [],
          checks: { ran: 0, held: 0 },
          ...r,
        }) as RequirementResult,
    );
    resolveRoots(list);
    const got = byId(list);
    for (const id of ['CP-A-001', 'CP-A-003']) {
      expect(got[id], id).toMatchObject({ status: 'skipped', failures: [] });
      expect(got[id]!.blockedBy, id).toBeUndefined();
      expect(got[id]!.reason, id).toMatch(/^not judged: its test stopped at a check of CP-A-00[12] \w+, which did not fail in this run/);
    }
    expect(got['CP-A-001']!.reason).toMatch(/CP-A-002 passed, which did not fail in this run: Revision r ended FAILED and is active\./);
    expect(got['CP-A-002']!.status).toBe('passed');
    // Not judged is no failure: the verdict is incomplete, not NOT CERTIFIED.
    expect(verdictOf(list, [], universeOf(catalogueOf(list.map((r) => req(r.id, r.level))))).verdict).toBe('incomplete');
  });

  test('a blocker outside the report (a --requirements run) is named as it is', () => {
    const got = byId(results(['AS-ASST-002'], [outcome(['AS-ASST-002'], 'failed', { failures: [failure('AS-SSE-006')] })]));
    expect(got['AS-ASST-002']).toMatchObject({ status: 'blocked', blockedBy: ['AS-SSE-006'] });
  });
});

describe('rules about a result set', () => {
  const emptied = failure('AS-SRCH-003', 'Search without limit listed 0 of 11 matching assistants.', { reliesOn: ['AS-SRCH-001'] });

  test('echoes reported as failures no more: a set check that failed on the set a failed rule emptied is blocked by that rule, and the echo is shown under it', () => {
    const got = byId(
      results(
        ['AS-SRCH-001', 'AS-SRCH-003'],
        [
          outcome(['AS-SRCH-001'], 'failed', { failures: [failure('AS-SRCH-001', 'Search by metadata did not list exactly the assistants holding it.')] }),
          outcome(['AS-SRCH-003'], 'failed', { failures: [emptied] }),
        ],
      ),
    );
    expect(got['AS-SRCH-003']).toMatchObject({ status: 'blocked', blockedBy: ['AS-SRCH-001'] });
    expect(got['AS-SRCH-001']!.status).toBe('failed');
    expect(got['AS-SRCH-001']!.failures.map((f) => f.message)).toContain(emptied.message);
  });

  test('the same set check fails its own rule when the rule that makes the set held', () => {
    const got = byId(
      results(['AS-SRCH-001', 'AS-SRCH-003'], [outcome(['AS-SRCH-001'], 'passed'), outcome(['AS-SRCH-003'], 'failed', { failures: [emptied] })]),
    );
    expect(got['AS-SRCH-003']!.status).toBe('failed');
    expect(got['AS-SRCH-001']!.status).toBe('passed');
  });
});

test('what a blocked test saw against its own statement is kept beside it, not judged', () => {
  const got = byId(
    results(
      ['AS-ASST-004', 'AS-SSE-006'],
      [
        outcome(['AS-ASST-004'], 'failed', {
          failures: [failure('AS-SSE-006')],
          alsoSeen: [{ requirements: ['AS-ASST-004'], message: 'POST /assistants/a/latest {"version": 2} answered version 1.', seen: '{"version":1}' }],
        }),
      ],
    ),
  );
  expect(got['AS-ASST-004']).toMatchObject({ status: 'blocked', alsoSeen: [{ message: expect.stringMatching(/answered version 1/), seen: '{"version":1}' }] });
  expect(got['AS-SSE-006']!.alsoSeen).toBeUndefined();
});

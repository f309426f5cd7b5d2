// The checks the suites' façade offers on top of `t.expect`: a check on one exchange, whose `seen`
// is what the exchange answered unless the test says otherwise, and a command sequence judged
// against the pure model, where a ModelMismatch fails the rule it names.
import { describe, expect, test } from 'vitest';
import { Check, ConformanceFailure, type Exchange } from '../../harness/conformance/index.ts';
import { ModelMismatch } from '../../generators/model-mismatch.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';

function check(): Check {
  return new Check({ profile: defaultProfile(), runId: 'apc-test', reproFlags: '', workerConcurrency: 1 }, 7, ['CP-X-001', 'CP-X-002']);
}

const answered: Exchange = {
  interface: 'control-plane',
  request: { method: 'GET', url: 'http://target.test/v2/deployments/d1', headers: {} },
  response: { status: 404, headers: {}, text: '{"detail":"Deployment ID d1 not found."}' },
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 3,
};

async function failureOf(run: () => unknown): Promise<ConformanceFailure> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ConformanceFailure) return error;
    throw error;
  }
  throw new Error('no failure');
}

describe('Check.expectOn, needOn and failOn', () => {
  test('a failed check on an exchange shows what the exchange answered', async () => {
    const t = check();
    const failure = await failureOf(() => t.expectOn(answered, false, { requirement: 'CP-X-002', message: 'not found', expected: 'HTTP 200' }));
    expect(failure.spec).toEqual({ requirement: 'CP-X-002', message: 'not found', expected: 'HTTP 200', seen: 'HTTP 404 {"detail":"Deployment ID d1 not found."}' });
    expect(t.tallies.get('CP-X-002')).toEqual({ ran: 1, held: 0 });
  });

  test('a seen the test gives is kept', async () => {
    const failure = await failureOf(() => check().failOn(answered, { message: 'wrong count', seen: 3 }));
    expect(failure.spec.seen).toBe(3);
  });

  test('a check that held counts for its requirement; a precondition that held counts for nothing', () => {
    const t: Check = check();
    t.expectOn(answered, true, { requirement: 'CP-X-001', message: 'unused' });
    t.needOn(answered, true, { requirement: 'CP-X-002', message: 'unused' });
    expect([...t.tallies]).toEqual([['CP-X-001', { ran: 1, held: 1 }]]);
  });

  test('a precondition that failed names the rule it relies on and counts for nothing', async () => {
    const t = check();
    const failure = await failureOf(() => t.needOn(answered, false, { requirement: 'CP-CREATE-001', message: 'no deployment' }));
    expect(failure.spec).toMatchObject({ requirement: 'CP-CREATE-001', seen: 'HTTP 404 {"detail":"Deployment ID d1 not found."}' });
    expect(t.tallies.size).toBe(0);
  });
});

describe('Check.expectModelAgrees', () => {
  test('a sequence that agrees with the model is a check of every requirement of the test', async () => {
    const t = check();
    await t.expectModelAgrees(async () => undefined);
    expect(t.tallies.get('CP-X-001')).toEqual({ ran: 1, held: 1 });
    expect(t.tallies.get('CP-X-002')).toEqual({ ran: 1, held: 1 });
  });

  test('a ModelMismatch fails the rule it names, saying how it was found, after the clean-up ran', async () => {
    const t = check();
    const steps: string[] = [];
    const failure = await failureOf(() =>
      t.expectModelAgrees(
        async () => {
          steps.push('run');
          throw new ModelMismatch('CP-X-002', 'the revision is missing', ['r1'], []);
        },
        { foundBy: 'the sequence create, patch', after: async () => void steps.push('after') },
      ),
    );
    expect(steps).toEqual(['run', 'after']);
    expect(failure.spec).toEqual({ requirement: 'CP-X-002', message: 'the revision is missing (found by the sequence create, patch)', expected: ['r1'], seen: [] });
    expect(t.tallies.get('CP-X-002')).toEqual({ ran: 1, held: 0 });
    expect(t.tallies.has('CP-X-001')).toBe(false);
  });

  test('with judged, a sequence that agrees is a check of the rules its commands judged only', async () => {
    const t = check();
    await t.expectModelAgrees(async () => undefined, { judged: new Set(['CP-X-002', 'CP-Y-009']) });
    expect([...t.tallies]).toEqual([['CP-X-002', { ran: 1, held: 1 }]]);
  });

  test('any other error is no verdict of the model: it is thrown as it is', async () => {
    const t = check();
    await expect(t.expectModelAgrees(async () => Promise.reject(new Error('socket hang up')))).rejects.toThrow(/^socket hang up$/);
    expect(t.tallies.size).toBe(0);
  });
});

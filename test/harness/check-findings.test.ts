// The checks issue 37 added to a test's Check: a refusal attributed to the rule of the request's
// form, a check of a result set that names the rules making the set, and a held-back check
// (`observe`) that fails the test at its end, or is "also seen" when the test stopped at another
// rule first; and a value outside its enum seen in any answer.
import { expect, test } from 'vitest';
import { Check } from '../../harness/conformance/check.ts';
import { ConformanceFailure, type FailureRecord } from '../../harness/conformance/failure.ts';
import { failureAtEnd, sideFindings } from '../../harness/conformance/findings.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';
import { apcCommand } from '../../harness/apc-command.ts';

const checkOf = (ids: string[]) => new Check({ profile: defaultProfile(), runId: 'apc-test', reproFlags: '', workerConcurrency: 1 }, 7, ids);

const exchange = (method: string, path: string, body: unknown, status: number, json?: unknown): Exchange => ({
  interface: 'agent-server',
  request: { method, url: `http://target${path}`, headers: {}, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) },
  response: { status, headers: {}, text: JSON.stringify(json ?? {}), json },
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: 1,
});

const thrown = (run: () => void): ConformanceFailure => {
  try {
    run();
  } catch (error) {
    if (error instanceof ConformanceFailure) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
};

const record = (requirement: string, message: string): FailureRecord => ({ requirements: [requirement], message, repro: 'apc certify', exchanges: [] });

test('a failed check on a refused string stream_mode names AS-SSE-006, not the run rule it was made for', () => {
  const t = checkOf(['AS-RUN-001']);
  const refused = exchange('POST', '/threads/t/runs/stream', { assistant_id: 'a', input: {}, stream_mode: 'updates' }, 400, { detail: 'no' });
  const failure = thrown(() => t.expectOn(refused, false, { requirement: 'AS-RUN-001', message: 'The run did not stream.' }));
  expect(failure.spec.requirement).toBe('AS-SSE-006');
  expect(failure.spec.message).toMatch(/the step relied on AS-RUN-001/);
  expect(t.tallies.get('AS-SSE-006')).toEqual({ ran: 1, held: 0 });
  expect(t.attribute(refused, { requirement: 'AS-RUN-001', message: 'x' }).requirement).toBe('AS-SSE-006');
  // The same refusal of a list is the list form's rule; a 404 is no form's.
  expect(
    t.attribute({ ...refused, request: { ...refused.request, body: '{"stream_mode":["updates"]}' } }, { requirement: 'AS-RUN-001', message: 'x' }).requirement,
  ).toBe('AS-SSE-007');
  expect(t.attribute({ ...refused, response: { ...refused.response!, status: 404 } }, { requirement: 'AS-RUN-001', message: 'x' }).requirement).toBe(
    'AS-RUN-001',
  );
});

test('a check of a result set names the rules that make the set, and never holds on an empty set where the test made items', () => {
  const t = checkOf(['AS-SRCH-003']);
  const short = thrown(() => t.expectOnSet(['a'], false, { basis: ['AS-SRCH-001'], made: 11, message: 'listed 1 of 11' }));
  expect(short.spec).toMatchObject({ reliesOn: ['AS-SRCH-001'], message: 'listed 1 of 11' });
  const empty = thrown(() => t.expectOnSet([], true, { basis: ['AS-SRCH-001'], made: 3, message: 'at most 10' }));
  expect(empty.spec.message).toMatch(/The result set was empty though the test made 3 matching item\(s\): nothing to judge/);
  t.expectOnSet(['a', 'b'], true, { basis: ['AS-SRCH-001'], made: 2, message: 'fine' });
  expect(t.tallies.get('AS-SRCH-003')).toEqual({ ran: 3, held: 1 });
});

test('a held-back check fails the test at its end; stopped first at another rule, it is also seen, not judged; stopped at its own rule, a failure too', () => {
  const ended = checkOf(['AS-ASST-004']);
  ended.observe(false, { requirement: 'AS-ASST-004', message: 'set-latest answered version 1.', seen: { version: 1 } });
  expect(failureAtEnd(ended)?.spec.message).toBe('set-latest answered version 1.');

  const blocked = checkOf(['AS-ASST-004']);
  blocked.observe(false, { requirement: 'AS-ASST-004', message: 'set-latest answered version 1.', seen: { version: 1 } });
  expect(sideFindings(blocked, record('AS-SSE-006', 'no updates events'))).toEqual({
    alsoSeen: [{ requirements: ['AS-ASST-004'], message: 'set-latest answered version 1.', seen: '{"version":1}' }],
  });

  const own = checkOf(['AS-ASST-004']);
  own.observe(false, { requirement: 'AS-ASST-004', message: 'set-latest answered version 1.' });
  expect(sideFindings(own, record('AS-ASST-004', 'the run used version 3')).failures?.map((f) => f.message)).toEqual(['set-latest answered version 1.']);
});

test("a status outside its enum fails its rule wherever it is seen: another rule's as an attributed failure, the test's own at its end", () => {
  const read = exchange('GET', '/v2/deployments/d/revisions/r', undefined, 200, { id: 'r', status: 'BUILD_ERROR' });
  const passing = checkOf(['CP-LIFE-003']);
  passing.recorder.exchanges.push(read);
  expect(failureAtEnd(passing)).toBeUndefined();
  expect(sideFindings(passing, undefined).attributed).toEqual([
    expect.objectContaining({ requirements: ['CP-REVL-009'], message: expect.stringMatching(/outside the revision statuses.*"BUILD_ERROR"/) }),
  ]);
  // Its repro line runs as printed: `npx apc` in a clone, as a test's own failure says it.
  expect(sideFindings(passing, undefined).attributed?.[0]?.repro).toBe(`${apcCommand()} certify --seed ${passing.profile.seed} --requirements CP-REVL-009`);
  const own = checkOf(['CP-REVL-009']);
  own.recorder.exchanges.push(read);
  expect(failureAtEnd(own)?.spec.requirement).toBe('CP-REVL-009');
  // Not twice: the rule the test stopped at already carries it.
  expect(sideFindings(passing, record('CP-REVL-009', 'status outside')).attributed).toBeUndefined();
});

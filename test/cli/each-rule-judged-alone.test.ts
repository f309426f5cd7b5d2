// Issue 37, end to end on the reference: a rule judged whole in a shared test passes when the
// other rule of that test fails; a rule about a result set is never passed on the empty set
// another rule's failure made; and what a blocked test saw against its own statement before it
// stopped is shown beside it as "also seen", not judged.
import { expect, test } from 'vitest';
import { editRequestJson } from '../../harness/proxy/proxy.ts';
import { certifyHere, keptSuiteWorkers } from '../support/certify.ts';
import { certifyThroughProxy } from '../support/proxied-certify.ts';

const kept = keptSuiteWorkers();

test('a failed revision named active fails CP-LIFE-005 alone: CP-LIFE-003, judged whole on the same deployment first, passes', async () => {
  const run = await certifyHere(
    {
      args: ['--interfaces', 'control-plane', '--reference-fault', 'cp.failed-revision-active', '--requirements', 'CP-LIFE-003,CP-LIFE-005', '--runs', '3'],
      timeoutMs: 200_000,
    },
    kept,
  );
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.status('CP-LIFE-005'), output).toBe('failed');
  expect(run.result('CP-LIFE-005')!.failures[0]!.message, output).toMatch(/names it as its active_revision_id/);
  expect(run.status('CP-LIFE-003'), output).toBe('passed');
}, 240_000);

test('a search that ignores its filter and its limit: AS-SRCH-002 is blocked by AS-SRCH-001, and the page over its limit is shown as also seen', async () => {
  const run = await certifyThroughProxy({
    target: { faults: ['as.search-ignores-metadata'] },
    // Each search lists one more than its limit, on top of a filter that lists every assistant.
    through: 'agent-server',
    rules: {
      request: (r) =>
        r.method === 'POST' && r.path.split('?')[0] === '/assistants/search'
          ? editRequestJson(r, (body) => void (typeof body.limit === 'number' && (body.limit += 1)))
          : r,
    },
    args: ['--interfaces', 'agent-server', '--requirements', 'AS-SRCH-001,AS-SRCH-002', '--runs', '3'],
    run: kept,
    // Another client's assistant, there before the run: a search that ignores its filter lists it
    // whichever tests created theirs first. Without it, a run whose AS-SRCH-002 searched before
    // any other test had created an assistant saw exactly its own five (a set the ignored filter
    // could not spoil), and rightly failed AS-SRCH-002 on the over-long pages instead.
    prepare: async (target) => {
      const created = await fetch(`${target.urls['agent-server']}/assistants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': target.grants[0]!.key },
        body: JSON.stringify({ graph_id: 'echo', metadata: { owner: 'another client' } }),
      });
      expect(created.status).toBe(200);
    },
  });
  expect(run.status('AS-SRCH-001'), run.output).toBe('failed');
  expect(run.result('AS-SRCH-002'), run.output).toMatchObject({ status: 'blocked', blockedBy: ['AS-SRCH-001'] });
  expect(run.result('AS-SRCH-002')!.alsoSeen, run.output).toEqual([expect.objectContaining({ message: 'A search with limit 2 listed 3 assistants.' })]);
}, 240_000);

// The probes' share of a budget (harness/run/probe-budget.ts, harness/discovery/within-budget.ts):
// PROBE_BUDGET is what probing a control plane creates at most, reached by a target that accepts
// every source kind and whose revisions end before the busyPatch PATCH reaches them; a budget
// smaller than that sends only the probes it covers; what is left for the tests is the rest.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { discoverWithinBudget } from '../../harness/discovery/within-budget.ts';
import { defaultProfile, PROBE_BUDGET, REMOTE_BUDGET, SOURCE_KINDS, type Budget } from '../../harness/profile/profile.ts';
import { budgetLeft, defaultUrlBudget } from '../../harness/run/probe-budget.ts';

/** A control plane that accepts every create and PATCH, each with a new revision that has already ended. */
let server: Server;
let url: string;
let revisions = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    const deployment = /^\/v2\/deployments\/([^/]+)$/.exec(path)?.[1];
    const answer = (status: number, body?: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && path === '/v2/deployments') return answer(201, { id: `d${++revisions}`, latest_revision_id: `r${revisions}` });
      if (req.method === 'PATCH' && deployment) return answer(200, { id: deployment, latest_revision_id: `r${++revisions}` });
      if (req.method === 'GET' && deployment) return answer(200, { id: deployment, latest_revision_id: `r${revisions}` });
      if (req.method === 'GET' && /\/revisions\//.test(path)) return answer(200, { id: 'r', status: 'DEPLOYED' });
      if (req.method === 'DELETE') return answer(204);
      return answer(200, { resources: [] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const probe = (budget: Budget) =>
  discoverWithinBudget({ profile: { ...defaultProfile(), urls: { 'control-plane': url }, budget }, runId: 'apc-probes', modeGiven: true });

describe('what probing a control plane creates', () => {
  test('at most PROBE_BUDGET: a deployment of each source kind and two busyPatch PATCHes, reached by a target that accepts them all', async () => {
    const { created, found } = await probe({});
    expect(created).toEqual(PROBE_BUDGET);
    expect(created).toEqual({ deployments: SOURCE_KINDS.length, revisions: SOURCE_KINDS.length + 2 });
    expect(found.sources).toEqual(SOURCE_KINDS);
  });

  test('within a smaller budget, only the probes it covers are sent, and each left out says why', async () => {
    const { created, found } = await probe({ deployments: 2, revisions: 3 });
    expect(created).toEqual({ deployments: 2, revisions: 3 });
    const notProbed = Object.values(found.sourceNotes).filter((note) => note.startsWith('not probed (budget: spent'));
    expect(notProbed).toHaveLength(SOURCE_KINDS.length - 2);
    expect(found.notes.find((n) => n.key === 'busyPatch')?.how).toMatch(/^not probed \(budget: spent: .*PATCH/);
  });
});

describe('the budget of a run that probes', () => {
  test('without one given, the default for a URL with the probes worst case on top, said in one line', () => {
    expect(defaultUrlBudget(false)).toEqual({ budget: REMOTE_BUDGET });
    const probing = defaultUrlBudget(true);
    expect(probing.budget).toEqual({ deployments: 16, revisions: 46 });
    expect(probing.line).toBe(
      'budget 16 deployments, 46 revisions: the default for a URL (12 deployments, 40 revisions) and 4 deployments, 6 revisions for probing the target without a profile',
    );
  });

  test('what the probes left for the tests: never below zero, and a kind the budget does not limit stays unlimited', () => {
    expect(budgetLeft({ deployments: 16, revisions: 46 }, { deployments: 3, revisions: 5 })).toEqual({ deployments: 13, revisions: 41 });
    expect(budgetLeft({ deployments: 2 }, { deployments: 3, revisions: 5 })).toEqual({ deployments: 0 });
    expect(budgetLeft({ revisions: 4 }, undefined)).toEqual({ revisions: 4 });
  });
});

// A target that refuses a revision-creating PATCH while a revision is in progress, certified with a
// hand-written profile that does not say so (no `busyPatch`): the run learns it from the first
// refusal, waits for the revision and sends the PATCH again, and from then on waits before every
// PATCH. Against the platform-like reference by URL (busy-deployments, slow builds of 150 ms a
// phase), with the default budget of a URL, as a user's first run would be. Both ways: a target
// that refuses a PATCH as busy even when nothing is in progress still fails the PATCH rule.
import { expect, test } from 'vitest';
import { startProxy } from '../../../harness/proxy/proxy.ts';
import { REMOTE_BUDGET } from '../../../harness/profile/profile.ts';
import { keptSuiteWorkers } from '../../support/certify.ts';
import { certifyControlPlane, startControlPlane } from './support/url-target.ts';

const suites = keptSuiteWorkers(2);
const BUSY = { detail: 'A revision is already in progress for this deployment.' };

test.concurrent(
  'a hand-written profile without busyPatch, against a target refusing PATCHes while busy: CERTIFIED, and the report says what it learned',
  async () => {
    const target = await startControlPlane('hosted', { behaviours: ['busy-deployments', 'slow-builds'], timeScale: 0.1 });
    try {
      // budget: undefined leaves the profile without one: a URL's default budget applies.
      const r = await certifyControlPlane(
        target.server.urls.controlPlane,
        target,
        'hosted',
        [],
        { budget: undefined, runs: 5, timeouts: { deployMs: 60_000 } },
        suites,
      );
      const output = `${r.stdout}\n${r.stderr}`;
      const notPassed = r
        .report!.requirements.filter((q) => q.status === 'failed' || q.status === 'blocked' || q.keptRefusing)
        .map((q) => `${q.id} ${q.status}: ${q.failures[0]?.message ?? q.reason ?? ''}`);
      expect(notPassed, output).toEqual([]);
      expect(r.report!.verdict, output).toBe('certified');
      expect(r.report!.learned?.busyPatch?.how, output).toMatch(/answered 409(, 409)* \(A revision is already in progress for this deployment\.\)/);
      // The default budget of a URL is a promise: no more deployments or revisions than it.
      const created = r.report!.cost!.created['control-plane']!;
      expect(created.deployments, output).toBeLessThanOrEqual(REMOTE_BUDGET.deployments!);
      expect(created.revisions, output).toBeLessThanOrEqual(REMOTE_BUDGET.revisions!);
      expect(r.stdout).toMatch(/learned: busyPatch: refused: .*Write `busyPatch: refused` in the profile/);
    } finally {
      await target.close();
    }
  },
  600_000,
);

test.concurrent(
  'a target that answers every revision-creating PATCH 409 "in progress", even when idle, fails CP-PATCH-001: the PATCH goes again a few times, then is judged',
  async () => {
    const target = await startControlPlane('hosted');
    const proxy = await startProxy(target.server.urls.controlPlane, {
      request: (request) =>
        request.method === 'PATCH' && /"secrets"|"source_revision_config"/.test(request.body.toString())
          ? { status: 409, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(BUSY)) }
          : request,
    });
    try {
      const r = await certifyControlPlane(proxy.url, target, 'hosted', ['CP-PATCH-001'], {}, suites);
      expect(r.status('CP-PATCH-001'), r.stdout).toBe('failed');
      expect(r.result('CP-PATCH-001')!.failures[0]!.message).toMatch(/answered 409/);
    } finally {
      await proxy.close();
      await target.close();
    }
  },
  300_000,
);

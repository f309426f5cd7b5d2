// Negative self-tests of the control-plane suites with a proxy in front of the reference that
// breaks rules no fault switch covers: create status and body, failed builds, the deployments
// listing, the integrations endpoint, the upload-url endpoint, reading one revision. Breakages
// that do not get in each other's way share a run; each rule must fail for its own reason.
import { afterAll, describe, test } from 'vitest';
import { expectFailed } from '../../support/report-expectations.ts';
import { startBrokenProxy, type Breakage, type BrokenProxy } from './support/broken-proxy.ts';
import { certifyControlPlane, startControlPlane, type ControlPlaneTarget } from './support/url-target.ts';
import { isObject } from '../../../schemas/is-object.ts';

const started: (BrokenProxy | ControlPlaneTarget)[] = [];
afterAll(async () => {
  for (const s of started.reverse()) await s.close();
});

async function certifyBroken(breakage: Breakage, requirements: string[]) {
  const target = await startControlPlane('hosted');
  started.push(target);
  const proxy = await startBrokenProxy(target.server.urls.controlPlane, breakage);
  started.push(proxy);
  return certifyControlPlane(proxy.url, target, 'hosted', requirements);
}


describe('control-plane suites fail a target that breaks their rule', () => {
  test('create answers 200 instead of 201; failed builds reported DEPLOYED', async () => {
    const run = await certifyBroken(
      {
        rewrite(r, a) {
          // Only the create property's deployments (named `<run>-create-...`): the other checks need their 201.
          if (r.method === 'POST' && r.path === '/v2/deployments' && a.status === 201 && isObject(a.body) && String(a.body.name).includes('-create-')) {
            return { ...a, status: 200 };
          }
          if (r.method === 'GET' && /\/revisions\/[^/]+$/.test(r.path) && isObject(a.body) && String(a.body.status).includes('FAILED')) {
            return { ...a, body: { ...a.body, status: 'DEPLOYED' } };
          }
          return a;
        },
      },
      ['CP-CREATE-001', 'CP-LIFE-003'],
    );
    expectFailed(run, {
      'CP-CREATE-001': /answered 200; expected 201/,
      'CP-LIFE-003': /ended with status DEPLOYED; expected a status containing FAILED/,
    });
  }, 180_000);

  test('no latest_revision_id on create, a listing that is no list, no integrations, no upload-url, revisions without status', async () => {
    const run = await certifyBroken(
      {
        answer(r) {
          if (r.method === 'GET' && r.path === '/v1/integrations/gitforge/install') return { status: 404, body: { detail: 'Not Found' } };
          if (r.method === 'POST' && r.path.endsWith('/upload-url')) return { status: 404, body: { detail: 'Not Found' } };
          return undefined;
        },
        rewrite(r, a) {
          // Only the create property's deployments (named `<run>-create-...`): the other checks need the id.
          if (r.method === 'POST' && r.path === '/v2/deployments' && isObject(a.body) && String(a.body.name).includes('-create-')) {
            return { ...a, body: { ...a.body, latest_revision_id: null } };
          }
          if (r.method === 'GET' && r.path === '/v2/deployments') return { ...a, body: { resources: 'none' } };
          if (r.method === 'GET' && /^\/v2\/deployments\/[^/]+\/revisions\/[^/]+$/.test(r.path) && isObject(a.body)) return { ...a, body: { ...a.body, status: undefined } };
          return a;
        },
      },
      ['CP-CREATE-003', 'CP-READ-002', 'CP-VER-002', 'CP-UPL-001', 'CP-REVL-004'],
    );
    expectFailed(run, {
      'CP-CREATE-003': /has no latest_revision_id/,
      'CP-READ-002': /did not answer a list of deployments/,
      'CP-VER-002': /did not answer 2xx/,
      'CP-UPL-001': /did not answer an upload location and an object path/,
      'CP-REVL-004': /did not answer that revision with a status/,
    });
  }, 180_000);
});

// The second duty: the control-plane suites pass a target that follows the spec in ways the
// reference does not. A proxy makes the reference answer a plain array for the deployments
// listing, 403 for missing or bad keys, 422 for every refused PATCH or create, 404 details in
// other words, revisions with their values at the top level, and upload-url only under /v2; and
// it ignores `name` and `source` in a PATCH instead of refusing them.
import { afterAll, expect, test } from 'vitest';
import { expectCertified } from '../../support/report-expectations.ts';
import { startBrokenProxy, type Answer, type BrokenProxy } from './support/broken-proxy.ts';
import { certifyControlPlane, startControlPlane, type ControlPlaneTarget } from './support/url-target.ts';
import { isObject } from '../../../schemas/is-object.ts';

const started: (BrokenProxy | ControlPlaneTarget)[] = [];
afterAll(async () => {
  for (const s of started.reverse()) await s.close();
});

type Json = Record<string, unknown>;

/** A revision with its SourceRevisionConfig members at the top level. */
const flat = (revision: unknown): unknown => {
  if (!isObject(revision) || !isObject(revision.source_revision_config)) return revision;
  const { source_revision_config: values, ...rest } = revision;
  return { ...rest, ...values };
};

function rewrite(method: string, path: string, answer: Answer): Answer {
  const { status, body } = answer;
  if (status === 401) return { status: 403, body: { detail: 'Forbidden.' } };
  if (status === 404 && isObject(body) && typeof body.detail === 'string') {
    return { status, body: { detail: body.detail.replace(/^Deployment ID (\S+) not found\.$/, 'No deployment $1 exists in this workspace.') } };
  }
  if (status === 400 && (method === 'PATCH' || (method === 'POST' && path === '/v2/deployments'))) {
    return { status: 422, body: { detail: [{ loc: ['body'], msg: isObject(body) ? String(body.detail) : 'invalid', type: 'value_error' }] } };
  }
  if (method === 'GET' && path === '/v2/deployments' && isObject(body) && Array.isArray(body.resources)) return { status, body: body.resources };
  if (method === 'GET' && /\/revisions$/.test(path) && isObject(body) && Array.isArray(body.resources)) return { status, body: { ...body, resources: body.resources.map(flat) } };
  if (method === 'GET' && /\/revisions\/[^/]+$/.test(path)) return { status, body: flat(body) };
  return answer;
}

test('the self-hosted reference behind a proxy of legitimate variations is certified', async () => {
  const target = await startControlPlane('self-hosted');
  started.push(target);
  const prefix = new URL(target.server.urls.controlPlane).pathname.replace(/\/$/, '');
  const proxy = await startBrokenProxy(target.server.urls.controlPlane, {
    forward(request) {
      if (request.method !== 'PATCH' || !isObject(request.body)) return request.body;
      const { name: _name, source: _source, ...rest } = request.body;
      return rest;
    },
    answer(request) {
      if (request.method === 'POST' && /^\/deployments\/[^/]+\/upload-url$/.test(request.path)) return { status: 404, body: { detail: 'Not Found' } };
      return undefined;
    },
    rewrite: (request, answer) => rewrite(request.method, request.path.replace(prefix, ''), answer),
  });
  started.push(proxy);
  const run = await certifyControlPlane(proxy.url, target, 'self-hosted', ['CP-*']);
  const fieldNotesShapes = ['CP-READ-004', 'CP-READ-005', 'CP-READ-006', 'CP-ERR-009', 'CP-REVL-007', 'CP-REVL-010'];
  expectCertified(run, fieldNotesShapes);
  // The variations were in force: the field notes' shapes they depart from were reported.
  const departed = ['CP-READ-004', 'CP-READ-005', 'CP-ERR-009', 'CP-REVL-007', 'CP-REVL-010'];
  expect(departed.map((id) => `${id} ${run.status(id)}`)).toEqual(departed.map((id) => `${id} failed`));
}, 400_000);

// Throughput and latency of the reference implementation under autocannon, each endpoint as a
// ratio to the same process's GET /ok measured in the same run (the machine's noise cancels).
import { ASSISTANT, DEPLOYMENT, upload } from './support/bodies.ts';
import { load, round, type LoadFigures } from './support/load.ts';
import type { ReferenceProcess } from './support/reference-process.ts';

export interface EndpointFigures extends LoadFigures {
  endpoint: string;
  /** requests/s divided by GET /ok's requests/s in the same run. */
  ratioToOk: number;
}

export async function throughput(ref: ReferenceProcess, options: { connections: number; seconds: number }): Promise<EndpointFigures[]> {
  const headers = { 'x-api-key': ref.grants[0].key, 'x-tenant-id': ref.grants[0].tenant };
  const created = await fetch(`${ref.urls.controlPlane}/v2/deployments`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: DEPLOYMENT.replace('[<id>]', 'read-me') });
  if (created.status !== 200 && created.status !== 201) throw new Error(`creating a deployment to read answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const cases: [string, Parameters<typeof load>[0]][] = [
    ['GET /ok', { url: `${ref.urls.agentServer}/ok` }],
    ['POST /v2/deployments', { url: `${ref.urls.controlPlane}/v2/deployments`, method: 'POST', headers, body: DEPLOYMENT }],
    ['GET /v2/deployments/{id}', { url: `${ref.urls.controlPlane}/v2/deployments/${id}`, headers }],
    ['POST /assistants', { url: `${ref.urls.agentServer}/assistants`, method: 'POST', headers, body: ASSISTANT }],
    ['POST upload-experiment (100 rows)', { url: `${ref.urls.experimentUpload}/api/v1/datasets/upload-experiment`, method: 'POST', headers, body: upload(100) }],
  ];
  // A short warm-up per endpoint, so the JIT has compiled the route before it is measured.
  for (const [, request] of cases) await load(request, { connections: options.connections, amount: 500 });
  const figures = [];
  for (const [endpoint, request] of cases) figures.push({ endpoint, ...(await load(request, options)) });
  const ok = figures[0]!.perSecond;
  return figures.map((f) => ({ ...f, ratioToOk: round(f.perSecond / ok) }));
}

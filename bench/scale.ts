// How the reference implementation's latency and a certification's time grow with what is
// stored: deployments and assistants are added through the API until each count is reached,
// then each read is measured with autocannon and a default certification runs against it.
import { ASSISTANT, DEPLOYMENT } from './support/bodies.ts';
import { load, type LoadFigures } from './support/load.ts';
import { certifyTarget } from './certification.ts';
import type { ReferenceProcess } from './support/reference-process.ts';

export interface ScaleRow {
  stored: number;
  latency: Record<string, Pick<LoadFigures, 'p50Ms' | 'p99Ms' | 'perSecond'>>;
  certifySeconds: number;
}

/** Waits until the revisions the seeding started have finished their phases (GET /ok quick again). */
async function settled(ref: ReferenceProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    await (await fetch(`${ref.urls.agentServer}/ok`)).text();
    if (performance.now() - started < 5) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function scale(ref: ReferenceProcess, counts: number[], options: { seconds: number; certify: boolean }): Promise<ScaleRow[]> {
  const [g1, g2] = ref.grants;
  const headers = { 'x-api-key': g1.key, 'x-tenant-id': g1.tenant };
  const post = async (url: string, body: string) => {
    const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: body.replaceAll('[<id>]', `scale-read-${Date.now()}`) });
    return (await response.json()) as { id?: string; assistant_id?: string };
  };
  const deployment = (await post(`${ref.urls.controlPlane}/v2/deployments`, DEPLOYMENT)).id!;
  const assistant = (await post(`${ref.urls.agentServer}/assistants`, ASSISTANT)).assistant_id!;
  const reads: [string, Parameters<typeof load>[0]][] = [
    ['GET /v2/deployments/{id}', { url: `${ref.urls.controlPlane}/v2/deployments/${deployment}`, headers }],
    ['GET /v2/deployments?limit=20', { url: `${ref.urls.controlPlane}/v2/deployments?limit=20`, headers }],
    ['GET /assistants/{id}', { url: `${ref.urls.agentServer}/assistants/${assistant}`, headers }],
    ['POST /assistants/search limit 10', { url: `${ref.urls.agentServer}/assistants/search`, method: 'POST', headers, body: '{"limit":10}' }],
  ];
  const flags = [
    ...['--control-plane-url', ref.urls.controlPlane, '--agent-server-url', ref.urls.agentServer, '--tracing-url', ref.urls.experimentUpload],
    ...['--api-key', g1.key, '--tenant-id', g1.tenant, '--other-api-key', g2.key, '--other-tenant-id', g2.tenant],
  ];
  const rows: ScaleRow[] = [];
  let stored = 1;
  for (const count of counts) {
    const more = count - stored;
    if (more > 0) {
      await load({ url: `${ref.urls.controlPlane}/v2/deployments`, method: 'POST', headers, body: DEPLOYMENT }, { connections: 10, amount: more });
      await load({ url: `${ref.urls.agentServer}/assistants`, method: 'POST', headers, body: ASSISTANT }, { connections: 10, amount: more });
      stored = count;
      await settled(ref);
    }
    const latency: ScaleRow['latency'] = {};
    for (const [name, request] of reads) {
      const { p50Ms, p99Ms, perSecond } = await load(request, { connections: 10, seconds: options.seconds });
      latency[name] = { p50Ms, p99Ms, perSecond };
    }
    const certifySeconds = options.certify ? (await certifyTarget(flags)).wallSeconds : Number.NaN;
    rows.push({ stored: count, latency, certifySeconds });
  }
  return rows;
}

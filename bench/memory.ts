// Resident memory of the reference implementation (a child process): just after start, after
// requests that store nothing (GET /ok, GET of one deployment), and after requests that each
// store one assistant. Growth should come only from what is stored.
import { ASSISTANT, DEPLOYMENT } from './support/bodies.ts';
import { load, round } from './support/load.ts';
import type { ReferenceProcess } from './support/reference-process.ts';

export interface MemoryFigures {
  requests: number;
  rssMiB: { afterStart: number; afterStatelessRequests: number; afterStoringRequests: number };
  /** Growth over the stateless requests, in MiB. */
  statelessGrowthMiB: number;
  /** Growth per stored assistant over the storing requests, in bytes. */
  bytesPerStoredAssistant: number;
}

export async function memory(ref: ReferenceProcess, requests: number): Promise<MemoryFigures> {
  const headers = { 'x-api-key': ref.grants[0].key, 'x-tenant-id': ref.grants[0].tenant };
  const afterStart = ref.rssMiB();
  const created = await fetch(`${ref.urls.controlPlane}/v2/deployments`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: DEPLOYMENT.replace('[<id>]', 'memory') });
  const { id } = (await created.json()) as { id: string };
  await load({ url: `${ref.urls.agentServer}/ok` }, { connections: 10, amount: requests / 2 });
  await load({ url: `${ref.urls.controlPlane}/v2/deployments/${id}`, headers }, { connections: 10, amount: requests / 2 });
  const afterStatelessRequests = ref.rssMiB();
  await load({ url: `${ref.urls.agentServer}/assistants`, method: 'POST', headers, body: ASSISTANT }, { connections: 10, amount: requests });
  const afterStoringRequests = ref.rssMiB();
  return {
    requests,
    rssMiB: { afterStart: round(afterStart, 1), afterStatelessRequests: round(afterStatelessRequests, 1), afterStoringRequests: round(afterStoringRequests, 1) },
    statelessGrowthMiB: round(afterStatelessRequests - afterStart, 1),
    bytesPerStoredAssistant: Math.round(((afterStoringRequests - afterStatelessRequests) * 1024 * 1024) / requests),
  };
}

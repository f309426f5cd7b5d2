// The ControlPlaneApi of the model-based commands, over HTTP to the target. Names are made unique
// per call (fast-check replays inputs while shrinking) and every deployment gets its deletion
// registered.
import type { Check, Exchange } from '../../../harness/conformance/index.ts';
import type { Answer, ControlPlaneApi } from '../../../generators/control-plane/commands.ts';
import type { CreateBody } from '../../../generators/control-plane/create-payloads.ts';
import type { PatchBody } from '../../../generators/control-plane/patches.ts';
import { deploymentPath, patch, revisionsPath, tryCreate } from './steps.ts';

const answer = (exchange: Exchange): Answer => ({ status: exchange.response?.status, body: exchange.response?.json });

export function httpControlPlane(t: Check): ControlPlaneApi & { created: string[] } {
  let calls = 0;
  const created: string[] = [];
  return {
    created,
    async create(body: CreateBody) {
      calls += 1;
      const name = `${body.name}-${calls.toString(36)}`;
      const exchange = await tryCreate(t, { ...body, name });
      const id = (exchange.response?.json as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string') created.push(id);
      return { ...answer(exchange), name };
    },
    get: async (id: string) => answer(await t.cp.get(deploymentPath(id))),
    patch: async (id: string, body: PatchBody) => answer(await patch(t, id, body)),
    revisions: async (id: string) => answer(await t.cp.get(revisionsPath(id))),
    delete: async (id: string) => answer(await t.cp.delete(deploymentPath(id))),
  };
}

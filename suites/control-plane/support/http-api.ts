// The ControlPlaneApi of the model-based commands, over HTTP to the target. Every name is unique
// in the whole run (fast-check replays inputs while shrinking, and sequences of one test share a
// target), every deployment gets its deletion registered, and a deletion takes the tracing
// project along, so no sequence can collide with another. A DELETE returns once the deployment
// has gone away (deletion may be asynchronous), as the model assumes.
import type { Check, Exchange } from '../../../harness/conformance/index.ts';
import type { Answer, ControlPlaneApi } from '../../../generators/control-plane/commands.ts';
import type { CreateBody } from '../../../generators/control-plane/create-payloads.ts';
import type { PatchBody } from '../../../generators/control-plane/patches.ts';
import { untilGone } from './deletion.ts';
import { deleteWithProject, deploymentPath, is2xx, patch, revisionsPath, tryCreate } from './steps.ts';

const answer = (exchange: Exchange): Answer => ({ status: exchange.response?.status, body: exchange.response?.json });

export function httpControlPlane(t: Check): ControlPlaneApi & { created: string[] } {
  const created: string[] = [];
  return {
    created,
    async create(body: CreateBody) {
      const name = t.name('seq');
      const exchange = await tryCreate(t, { ...body, name });
      const id = (exchange.response?.json as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string') created.push(id);
      return { ...answer(exchange), name };
    },
    get: async (id: string) => answer(await t.cp.get(deploymentPath(id))),
    patch: async (id: string, body: PatchBody) => answer(await patch(t, id, body)),
    revisions: async (id: string) => answer(await t.cp.get(revisionsPath(id))),
    // Deletion may be asynchronous: the model's deleted deployment is one that has gone away (or never will: then its read says so).
    delete: async (id: string) => {
      const exchange = await deleteWithProject(t, id);
      if (is2xx(exchange)) await untilGone(t, id);
      return answer(exchange);
    },
  };
}

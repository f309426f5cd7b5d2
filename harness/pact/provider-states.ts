// Provider states of the consumer pacts in contracts/: each creates what an interaction needs
// through the target's own HTTP interface (the harness client, never a store), and hands the
// ids it made to Pact for injection into the request. Everything made carries the run's tag and
// is deleted by `cleanup()`.
import { randomBytes, randomUUID } from 'node:crypto';
import { InterfaceClient, Recorder } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { Limiter } from '../http/limiter.ts';
import { redactor } from '../redact.ts';
import type { InterfaceName, TargetProfile } from '../profile/profile.ts';

export type StateParams = Record<string, string>;

export interface ProviderStates {
  handlers: Record<string, () => Promise<StateParams>>;
  /** Deletes what the states and the verified requests created; failures are ignored. */
  cleanup(): Promise<void>;
}

export class StateError extends Error {}

/** The JSON body of a 2xx answer, or a StateError naming the request and what came back. */
function answer(what: string, exchange: Exchange): Record<string, unknown> {
  const response = exchange.response;
  if (response && response.status >= 200 && response.status < 300 && typeof response.json === 'object' && response.json !== null) {
    return response.json as Record<string, unknown>;
  }
  const seen = response ? `${response.status} ${response.text.slice(0, 200)}` : (exchange.error ?? 'no answer');
  throw new StateError(`${what}: ${exchange.request.method} ${exchange.request.url} answered ${seen}`);
}

function client(name: InterfaceName, profile: TargetProfile): InterfaceClient {
  return new InterfaceClient(name, profile.urls[name]!, profile, new Recorder(), new Limiter(profile.concurrency), { redactor });
}

export function runTag(): string {
  return `apc-contract-${randomBytes(3).toString('hex')}`;
}

function controlPlaneStates(profile: TargetProfile, tag: string): ProviderStates {
  const cp = client('control-plane', profile);
  let count = 0;
  const nextName = () => `${tag}-${++count}`;
  return {
    handlers: {
      'a name for a new deployment': async () => ({ name: nextName() }),
      'a deployment exists': async () => {
        const created = answer(
          'provider state "a deployment exists"',
          await cp.post('/v2/deployments', {
            name: nextName(),
            source: 'internal_container',
            source_config: {},
            source_revision_config: { image_uri: profile.fixtures.imageUri },
            secrets: [],
          }),
        );
        return { deploymentId: String(created.id), revisionId: String(created.latest_revision_id) };
      },
      'a deployment id that does not exist': async () => ({ missingId: randomUUID() }),
    },
    async cleanup() {
      const listed = await cp.get('/v2/deployments', { query: { name_contains: tag, limit: 100 } });
      const json = listed.response?.json as { resources?: { id: string; name: string }[] } | undefined;
      for (const d of json?.resources ?? []) if (d.name.startsWith(tag)) await cp.delete(`/v2/deployments/${d.id}`);
    },
  };
}

function agentServerStates(profile: TargetProfile, tag: string): ProviderStates {
  const as = client('agent-server', profile);
  const threads: string[] = [];
  const assistant = async (state: string) =>
    String(answer(`provider state "${state}"`, await as.post('/assistants', { graph_id: profile.fixtures.graphId, metadata: { tag } })).assistant_id);
  /** An assistant created with {tone: brief} and updated to {tone: detailed}: two versions, the newer active. */
  const twoVersions = async (state: string) => {
    const id = String(
      answer(`provider state "${state}"`, await as.post('/assistants', { graph_id: profile.fixtures.graphId, context: { tone: 'brief' }, metadata: { tag } }))
        .assistant_id,
    );
    answer(`provider state "${state}"`, await as.patch(`/assistants/${id}`, { context: { tone: 'detailed' } }));
    return id;
  };
  return {
    handlers: {
      'a tag for new resources': async () => ({ tag }),
      'an assistant with two versions exists': async () => ({ assistantId: await twoVersions('an assistant with two versions exists'), tag }),
      'version 1 of an updated assistant was made active again, and a thread exists': async () => {
        const state = 'version 1 of an updated assistant was made active again, and a thread exists';
        const assistantId = await twoVersions(state);
        answer(`provider state "${state}"`, await as.post(`/assistants/${assistantId}/latest`, { version: 1 }));
        const threadId = String(answer(`provider state "${state}"`, await as.post('/threads', {})).thread_id);
        threads.push(threadId);
        return { assistantId, threadId, tag };
      },
      'an assistant exists': async () => ({ assistantId: await assistant('an assistant exists'), tag }),
      'an assistant and a thread exist': async () => {
        const assistantId = await assistant('an assistant and a thread exist');
        const threadId = String(answer('provider state "an assistant and a thread exist"', await as.post('/threads', {})).thread_id);
        threads.push(threadId);
        return { assistantId, threadId, tag };
      },
    },
    async cleanup() {
      const found = await as.post('/assistants/search', { metadata: { tag }, limit: 100 });
      const list = Array.isArray(found.response?.json) ? (found.response.json as { assistant_id: string }[]) : [];
      for (const a of list) await as.delete(`/assistants/${a.assistant_id}`);
      // Threads have no deletion in the spec; a target that offers it gets them back.
      for (const id of threads) await as.delete(`/threads/${id}`);
    },
  };
}

function experimentUploadStates(tag: string): ProviderStates {
  let count = 0;
  return {
    handlers: {
      // The upload endpoint has nothing to set up: fresh names keep uploads of repeated runs apart.
      'names for a new experiment and dataset': async () => {
        count += 1;
        return { experimentName: `${tag}-experiment-${count}`, datasetName: `${tag}-dataset-${count}`, datasetId: randomUUID() };
      },
    },
    // The spec has no way to delete an uploaded experiment or dataset.
    cleanup: async () => undefined,
  };
}

export function providerStates(iface: InterfaceName, profile: TargetProfile, tag: string): ProviderStates {
  switch (iface) {
    case 'control-plane':
      return controlPlaneStates(profile, tag);
    case 'agent-server':
      return agentServerStates(profile, tag);
    case 'experiment-upload':
      return experimentUploadStates(tag);
  }
}

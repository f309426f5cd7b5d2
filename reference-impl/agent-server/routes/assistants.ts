// Assistants and their versions (spec 2.7, 3 "Assistant versions", 4.2).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type {
  AssistantCreateRequest,
  AssistantPatchRequest,
  AssistantSearchRequest,
  AssistantVersionsRequest,
  SetLatestRequest,
} from '../../../schemas/index.ts';
import { conflict, notFound, unprocessable } from '../../http-errors.ts';
import { assistantIdOf, assistantNotFound, resolveAssistant } from '../assistant-resolver.ts';
import type { AgentServerDeps } from '../deps.ts';
import { FAULTS } from '../faults.ts';
import { checkBody, checkPage } from '../request-checks.ts';
import type { AssistantConfig, AssistantRecord } from '../store.ts';
import { assistantView, versionShift, versionView } from '../views.ts';

type Json = Record<string, unknown>;

/** The configuration fields a create or patch request may carry. */
type ConfigFields = AssistantPatchRequest;

type IdParams = { Params: { assistant_id: string } };

/** Refuses a graph this server does not serve and a context its schema rejects. */
function checkGraphAndContext(deps: AgentServerDeps, graphId: string, context: Json | undefined): void {
  if (!deps.graphs.get(graphId)) {
    throw unprocessable([
      { loc: ['body', 'graph_id'], msg: `Graph ${JSON.stringify(graphId)} is not served here; registered graphs: ${deps.graphs.ids.join(', ')}.`, type: 'graph_not_found' },
    ]);
  }
  const issues = deps.graphs.contextIssues(graphId, context ?? {}, ['body', 'context']);
  if (issues.length > 0) throw unprocessable(issues);
}

/**
 * A version's configuration from the supplied fields alone: omitted `context`, `metadata` and
 * `config` are `{}`, an omitted `name` is the graph id, an omitted `description` is null.
 */
function configFrom(body: ConfigFields, graphId: string): AssistantConfig {
  return {
    graph_id: graphId,
    name: body.name ?? graphId,
    description: body.description ?? null,
    context: body.context ?? {},
    metadata: body.metadata ?? {},
    config: body.config ?? {},
  };
}

/** fault `as.patch-merges`: the new version keeps omitted fields and merges context and metadata. */
function mergedConfig(current: AssistantRecord, body: ConfigFields): AssistantConfig {
  return {
    graph_id: body.graph_id ?? current.graph_id,
    name: body.name ?? current.name,
    description: body.description === undefined ? current.description : body.description,
    context: { ...current.context, ...body.context },
    metadata: { ...current.metadata, ...body.metadata },
    config: { ...current.config, ...body.config },
  };
}

/** Highest version number a store can hold (PostgreSQL `integer`). */
const MAX_VERSION = 2 ** 31 - 1;

export function registerAssistantRoutes(app: FastifyInstance, deps: AgentServerDeps): void {
  const { store, faults } = deps;

  app.post('/assistants', async (request) => {
    const body = checkBody<AssistantCreateRequest>('AssistantCreateRequest', request.body);
    checkGraphAndContext(deps, body.graph_id, body.context);
    const assistantId = body.assistant_id?.toLowerCase() ?? randomUUID();
    const { assistant, created } = await store.createAssistant(assistantId, configFrom(body, body.graph_id));
    if (!created && (body.if_exists ?? 'raise') === 'raise') {
      throw conflict(`Assistant ${assistantId} already exists. Send "if_exists": "do_nothing" to get the existing assistant instead.`);
    }
    return assistantView(assistant, faults);
  });

  app.get<IdParams>('/assistants/:assistant_id', async (request) => {
    return assistantView(await resolveAssistant(deps, request.params.assistant_id), faults);
  });

  app.patch<IdParams>('/assistants/:assistant_id', async (request) => {
    const body = checkBody<AssistantPatchRequest>('AssistantPatchRequest', request.body ?? {});
    const current = await resolveAssistant(deps, request.params.assistant_id);
    const config = faults.has(FAULTS.patchMerges) ? mergedConfig(current, body) : configFrom(body, body.graph_id ?? current.graph_id);
    checkGraphAndContext(deps, config.graph_id, config.context);
    const updated = await store.addVersion(current.assistant_id, config);
    if (!updated) throw assistantNotFound(deps, request.params.assistant_id);
    return assistantView(updated, faults);
  });

  app.delete<IdParams>('/assistants/:assistant_id', async (request, reply) => {
    const id = assistantIdOf(deps, request.params.assistant_id);
    // fault: the deletion is answered but the assistant and its versions stay.
    const deleted = id !== undefined && (faults.has(FAULTS.deleteKeepsVersions) ? (await store.getAssistant(id)) !== undefined : await store.deleteAssistant(id));
    if (!deleted) throw assistantNotFound(deps, request.params.assistant_id);
    return reply.code(204).send();
  });

  app.post<IdParams>('/assistants/:assistant_id/latest', async (request) => {
    const body = checkBody<SetLatestRequest>('SetLatestRequest', request.body);
    const current = await resolveAssistant(deps, request.params.assistant_id);
    // fault: the request is answered but the active version stays as it was.
    if (faults.has(FAULTS.setLatestIgnored)) return assistantView(current, faults);
    const version = body.version - versionShift(faults);
    // Versions count from 1 and are stored as 32-bit integers: any other number names no version.
    const result = version >= 1 && version <= MAX_VERSION ? await store.setActiveVersion(current.assistant_id, version) : 'no-version';
    if (result === 'no-assistant') throw assistantNotFound(deps, request.params.assistant_id);
    if (result === 'no-version') {
      throw notFound(`Version ${body.version} of assistant ${current.assistant_id} not found. List its versions with POST /assistants/${current.assistant_id}/versions.`);
    }
    return assistantView(result, faults);
  });

  app.post<IdParams>('/assistants/:assistant_id/versions', async (request) => {
    const body = checkBody<AssistantVersionsRequest>('AssistantVersionsRequest', request.body ?? {});
    const page = checkPage(body, 10);
    const id = assistantIdOf(deps, request.params.assistant_id);
    const query = { ...page, ...(body.metadata && { metadata: body.metadata }) };
    const versions = id === undefined ? undefined : await store.listVersions(id, query);
    if (!versions) throw assistantNotFound(deps, request.params.assistant_id);
    return versions.map((v) => versionView(v, faults));
  });

  app.post('/assistants/search', async (request) => {
    const body = checkBody<AssistantSearchRequest>('AssistantSearchRequest', request.body ?? {});
    const page = checkPage(body, 10);
    // fault: the metadata filter is ignored.
    const metadata = faults.has(FAULTS.searchIgnoresMetadata) ? undefined : body.metadata;
    const found = await store.searchAssistants({ ...page, ...(metadata && { metadata }), ...(body.graph_id !== undefined && { graph_id: body.graph_id }) });
    return found.map((a) => assistantView(a, faults));
  });
}

// The OpenAPI description the agent server serves at /openapi.json (and renders at /docs):
// the operations below plus the project's JSON Schemas as components.
import { openApiComponents } from '../../schemas/index.ts';
import type { OpenApiDocument } from '../docs.ts';
import { MAX_LIMIT } from './request-checks.ts';
import { STREAM_MODES } from './stream-events.ts';

interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  tag: string;
  summary: string;
  /** Component name of the JSON body, if any. */
  body?: string;
  /** Status and component name (or a literal schema) of the success response. */
  ok: { status: number; schema?: string | Record<string, unknown>; sse?: true };
  /** Error statuses this operation answers besides 401 and 422. */
  errors?: number[];
  /** Served without an API key. */
  public?: true;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const listOf = (name: string) => ({ type: 'array', items: ref(name) });

export const OPERATIONS: Operation[] = [
  { method: 'post', path: '/assistants', tag: 'Assistants', summary: 'Create an assistant (version 1, active).', body: 'AssistantCreateRequest', ok: { status: 200, schema: 'Assistant' }, errors: [409] },
  { method: 'post', path: '/assistants/search', tag: 'Assistants', summary: 'Search assistants by metadata (containment) and graph, newest first.', body: 'AssistantSearchRequest', ok: { status: 200, schema: listOf('Assistant') } },
  { method: 'get', path: '/assistants/{assistant_id}', tag: 'Assistants', summary: 'Get an assistant (its active version); a graph id gives the graph\'s default assistant.', ok: { status: 200, schema: 'Assistant' }, errors: [404] },
  { method: 'patch', path: '/assistants/{assistant_id}', tag: 'Assistants', summary: 'Add a version built from the supplied configuration alone and make it active.', body: 'AssistantPatchRequest', ok: { status: 200, schema: 'Assistant' }, errors: [404] },
  { method: 'delete', path: '/assistants/{assistant_id}', tag: 'Assistants', summary: 'Delete an assistant and all its versions.', ok: { status: 204 }, errors: [404] },
  { method: 'post', path: '/assistants/{assistant_id}/latest', tag: 'Assistants', summary: 'Make a version the active one.', body: 'SetLatestRequest', ok: { status: 200, schema: 'Assistant' }, errors: [404] },
  { method: 'post', path: '/assistants/{assistant_id}/versions', tag: 'Assistants', summary: 'List an assistant\'s versions, newest first.', body: 'AssistantVersionsRequest', ok: { status: 200, schema: { type: 'array', items: { type: 'object' } } }, errors: [404] },
  { method: 'post', path: '/threads', tag: 'Threads', summary: 'Create a thread.', body: 'ThreadCreateRequest', ok: { status: 200, schema: 'Thread' }, errors: [409] },
  { method: 'post', path: '/threads/search', tag: 'Threads', summary: 'Search threads by metadata (containment), newest first.', body: 'ThreadSearchRequest', ok: { status: 200, schema: listOf('Thread') } },
  { method: 'get', path: '/threads/{thread_id}', tag: 'Threads', summary: 'Get a thread.', ok: { status: 200, schema: 'Thread' }, errors: [404] },
  { method: 'delete', path: '/threads/{thread_id}', tag: 'Threads', summary: 'Delete a thread.', ok: { status: 204 }, errors: [404] },
  { method: 'get', path: '/threads/{thread_id}/state', tag: 'Threads', summary: 'Get the state a thread\'s runs accumulated.', ok: { status: 200, schema: { type: 'object', required: ['values'], properties: { values: { type: 'object' } } } }, errors: [404] },
  { method: 'post', path: '/threads/{thread_id}/runs/stream', tag: 'Thread runs', summary: 'Run a graph on a thread and stream the results as server-sent events.', body: 'RunStreamRequest', ok: { status: 200, sse: true }, errors: [404] },
  { method: 'post', path: '/runs/stream', tag: 'Stateless runs', summary: 'Run a graph without a thread (nothing is stored) and stream the results.', body: 'RunStreamRequest', ok: { status: 200, sse: true }, errors: [404] },
  { method: 'get', path: '/ok', public: true, tag: 'System', summary: 'Health check.', ok: { status: 200, schema: { type: 'object', properties: { ok: { const: true } } } } },
  { method: 'get', path: '/info', public: true, tag: 'System', summary: 'Server version, graphs and storage.', ok: { status: 200, schema: { type: 'object' } } },
  { method: 'get', path: '/docs', public: true, tag: 'System', summary: 'This reference as HTML.', ok: { status: 200, schema: { type: 'string' } } },
  { method: 'get', path: '/openapi.json', public: true, tag: 'System', summary: 'This reference as OpenAPI.', ok: { status: 200, schema: { type: 'object' } } },
];

/** Paths served without an API key. */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(OPERATIONS.filter((op) => op.public).map((op) => op.path));

const ERROR_TEXT: Record<number, string> = {
  401: 'Missing or invalid X-Api-Key: `{detail: string}`.',
  404: 'Not found: `{detail: string}` naming what is missing.',
  409: 'Already exists: `{detail: string}`.',
  422: 'Validation error: HTTPValidationError `{detail: [{loc, msg, type}]}`.',
};

function operationObject(op: Operation, known: ReadonlySet<string>): Record<string, unknown> {
  const detail = { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } };
  const responses: Record<string, unknown> = {};
  if (op.ok.sse) {
    responses[op.ok.status] = {
      description: `Server-sent events: \`metadata\` first (\`{run_id, attempt}\`), then per stream mode (${STREAM_MODES.join(', ')}); \`error\` when a node throws. The response ends after the last event.`,
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  } else if (op.ok.schema === undefined) {
    responses[op.ok.status] = { description: 'Success, no body.' };
  } else {
    const schema = typeof op.ok.schema === 'string' ? ref(op.ok.schema) : op.ok.schema;
    const type = op.path === '/docs' ? 'text/html' : 'application/json';
    responses[op.ok.status] = { description: 'Success.', content: { [type]: { schema } } };
  }
  const statuses = [...(op.public ? [] : [401]), ...(op.errors ?? []), ...(op.body || op.path.includes('{') ? [422] : [])];
  for (const status of statuses) {
    const schema = status === 422 && known.has('HTTPValidationError') ? ref('HTTPValidationError') : detail;
    responses[status] = { description: ERROR_TEXT[status], content: { 'application/json': { schema } } };
  }
  const parameters = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    description: name === 'assistant_id' ? 'Assistant uuid, or a graph id for its default assistant.' : 'Thread uuid.',
  }));
  return {
    tags: [op.tag],
    summary: op.summary,
    operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    ...(parameters.length > 0 && { parameters }),
    ...(op.body && known.has(op.body) && { requestBody: { required: true, content: { 'application/json': { schema: ref(op.body) } } } }),
    ...(op.public && { security: [] }),
    responses,
  };
}

export function buildOpenApi(version: string, graphIds: string[]): OpenApiDocument {
  const components = openApiComponents();
  const known = new Set(Object.keys(components.schemas));
  const paths: Record<string, Record<string, object>> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op, known);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reference agent server',
      version,
      description: `Agent server API of the conformance harness's reference implementation. Graphs served: ${graphIds.join(', ')}. Listings accept limit 1..${MAX_LIMIT}.`,
    },
    paths,
    components: { ...components, securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
    security: [{ ApiKey: [] }],
  };
}

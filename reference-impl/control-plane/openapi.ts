// The control plane's OpenAPI document. Bodies come from the project's schemas
// (`openApiComponents()`); this file adds the paths, parameters and error responses.
import { openApiComponents } from '../../schemas/index.ts';
import { MAX_TARBALL_BYTES, UPLOAD_PATH } from './upload-routes.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const detail = (description: string) => ({
  description,
  ...json({ type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } }),
});

const authErrors = {
  '401': detail('Missing or invalid X-Api-Key.'),
  '403': detail('The key may not act for the X-Tenant-Id workspace, or one is needed ("requires workspace specification").'),
  '422': { description: 'Validation error: a path, query or body value does not match its schema.', ...json(ref('HTTPValidationError')) },
};
const deploymentNotFound = detail('Unknown deployment id, or one of another workspace: "Deployment ID <id> not found."');

const uuidParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
const query = (name: string, schema: object, description?: string) => ({ name, in: 'query', schema, ...(description ? { description } : {}) });
const pageParams = [
  query('limit', { type: 'integer', minimum: 1, maximum: 100, default: 20 }),
  query('offset', { type: 'integer', minimum: 0, default: 0 }),
];
const page = (items: unknown) =>
  json({ type: 'object', required: ['resources', 'offset'], properties: { resources: { type: 'array', items }, offset: { type: 'integer' } } });
const uploadUrl = {
  summary: 'Hand out an upload URL and object path for a source tarball',
  parameters: [uuidParam('deployment_id')],
  responses: {
    '200': {
      description: 'PUT the gzip tarball to upload_url, then PATCH with source_revision_config.source_tarball_path = object_path.',
      ...json({
        type: 'object',
        required: ['upload_url', 'object_path'],
        properties: { upload_url: { type: 'string', format: 'uri' }, object_path: { type: 'string' } },
      }),
    },
    '404': deploymentNotFound,
    ...authErrors,
  },
};

export function openApiDocument(prefix: string) {
  const paths: Record<string, Record<string, object>> = {
    '/v2/deployments': {
      post: {
        summary: 'Create a deployment and its first revision (and a tracing project of the same name)',
        requestBody: { required: true, ...json(ref('DeploymentCreateRequest')) },
        responses: {
          '201': { description: 'The deployment, with id and latest_revision_id.', ...json(ref('Deployment')) },
          '400': detail('A rule of the spec is broken: a field that does not apply to the source, a source this installation does not offer, a tag built on push, ...'),
          '409': detail('The workspace has a deployment, or a tracing project, of that name.'),
          '413': detail('The body is larger than 1 MiB.'),
          ...authErrors,
        },
      },
      get: {
        summary: 'List deployments, newest first',
        parameters: [
          ...pageParams,
          query('name_contains', { type: 'string' }, 'Case-insensitive substring of the name.'),
          query('status', { type: 'string' }, 'Comma-separated deployment statuses.'),
          query('deployment_ids', { type: 'string' }, 'Comma-separated deployment ids.'),
          query('image_version', { type: 'string' }),
          query('deployment_type', { type: 'string', enum: ['dev_free', 'dev', 'prod'] }),
        ],
        responses: { '200': { description: 'A page of deployments; offset echoes the request.', ...page(ref('Deployment')) }, ...authErrors },
      },
    },
    '/v2/deployments/{deployment_id}': {
      get: {
        summary: 'Read a deployment',
        parameters: [uuidParam('deployment_id')],
        responses: { '200': { description: 'The deployment.', ...json(ref('Deployment')) }, '404': deploymentNotFound, ...authErrors },
      },
      patch: {
        summary: 'Change a deployment; revision settings create exactly one new revision',
        parameters: [uuidParam('deployment_id')],
        requestBody: { required: true, ...json(ref('DeploymentPatchRequest')) },
        responses: {
          '200': { description: 'The deployment after the change.', ...json(ref('Deployment')) },
          '400': detail('An immutable field would change, a field does not apply to the source, a tag built on push, an object path not handed out for this deployment, ...'),
          '404': deploymentNotFound,
          ...authErrors,
        },
      },
      delete: {
        summary: 'Delete a deployment with its revisions',
        parameters: [uuidParam('deployment_id'), query('delete_tracing_project', { type: 'boolean', default: false }, 'Also delete the tracing project of the same name.')],
        responses: { '204': { description: 'Deleted; no body.' }, '404': deploymentNotFound, ...authErrors },
      },
    },
    '/v2/deployments/{deployment_id}/revisions': {
      get: {
        summary: 'List revisions of a deployment, newest first',
        parameters: [uuidParam('deployment_id'), ...pageParams, query('status', { type: 'string' }, 'Comma-separated revision statuses.')],
        responses: { '200': { description: 'A page of revisions.', ...page(ref('Revision')) }, '404': deploymentNotFound, ...authErrors },
      },
    },
    '/v2/deployments/{deployment_id}/revisions/{revision_id}': {
      get: {
        summary: 'Read a revision',
        parameters: [uuidParam('deployment_id'), uuidParam('revision_id')],
        responses: {
          '200': { description: 'The revision.', ...json(ref('Revision')) },
          '404': detail('"Deployment ID <id> not found." or "Revision ID <id> not found."'),
          ...authErrors,
        },
      },
    },
    '/v2/deployments/{deployment_id}/upload-url': { post: uploadUrl },
    '/deployments/{deployment_id}/upload-url': { post: { ...uploadUrl, summary: `${uploadUrl.summary} (the spec's unversioned path)` } },
    [`${UPLOAD_PATH}/{token}`]: {
      put: {
        summary: 'Upload target handed out by upload-url (the URL carries the credential; no X-Api-Key)',
        security: [],
        parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: { 'application/gzip': { schema: { type: 'string', format: 'binary', maxLength: MAX_TARBALL_BYTES } } } },
        responses: {
          '200': { description: 'Stored.' },
          '400': detail('The body is not gzip data.'),
          '403': detail('The upload URL is unknown or expired.'),
          '413': detail('The tarball is larger than 200 MiB.'),
          '415': detail('The Content-Type is not application/gzip.'),
        },
      },
    },
    '/v1/integrations/gitforge/install': {
      get: {
        summary: 'List gitforge integrations (hosted only; empty when self-hosted)',
        responses: {
          '200': {
            description: 'Integrations; use an id as source_config.integration_id.',
            ...json({
              type: 'array',
              items: { type: 'object', required: ['id', 'installation_id', 'name'], properties: { id: { type: 'string', format: 'uuid' }, installation_id: { type: 'integer' }, name: { type: 'string' } } },
            }),
          },
          ...authErrors,
        },
      },
    },
    '/v2/listeners': {
      get: {
        summary: 'List listeners (self-hosted only; empty when hosted)',
        parameters: pageParams,
        responses: { '200': { description: 'A page of listeners; use an id as source_config.listener_id.', ...page({ type: 'object' }) }, ...authErrors },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Control plane (reference implementation)',
      version: '0.1.0',
      description: 'Spec interface A. Every path except the upload target needs the X-Api-Key header, and X-Tenant-Id when the key may act for several workspaces.',
    },
    servers: [{ url: prefix || '/' }],
    components: {
      ...openApiComponents(),
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        tenantId: { type: 'apiKey', in: 'header', name: 'X-Tenant-Id' },
      },
    },
    security: [{ apiKey: [], tenantId: [] }, { apiKey: [] }],
    paths,
  };
}

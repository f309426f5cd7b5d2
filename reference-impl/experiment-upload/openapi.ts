// The experiment-upload listener's OpenAPI document. Request and response bodies come from the project's
// schemas (schemas/index.ts); this file adds the paths, parameters and error responses.
import { openApiComponents } from '../../schemas/index.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const detail = (description: string) => ({ description, ...json(ref('ErrorDetail')) });

const errors = {
  '401': detail('Missing or invalid x-api-key.'),
  '403': detail('The key may not act for the X-Tenant-Id workspace, or one is needed.'),
  '422': { description: 'Validation error.', ...json(ref('HTTPValidationError')) },
};

const uuidParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
const pageParams = [
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 100 } },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
];

/** Datasets and sessions are read back in the shapes the upload response gives them. */
const dataset = ref('UploadedDataset');
const session = ref('UploadedExperiment');

export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Experiment upload and tracing (reference implementation)',
      version: '0.1.0',
      description: 'Spec interface C, plus reads of datasets and sessions. Every /api path needs the x-api-key header.',
    },
    components: {
      ...openApiComponents(),
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
    },
    security: [{ apiKey: [] }],
    paths: {
      '/api/v1/datasets/upload-experiment': {
        post: {
          summary: 'Upload an experiment with its dataset examples and runs',
          requestBody: { required: true, ...json(ref('ExperimentUploadRequest')) },
          responses: {
            '200': { description: 'The dataset and the experiment; statistics are null until the runs are persisted.', ...json(ref('ExperimentUploadResponse')) },
            '400': detail('The named dataset is not externally managed.'),
            '409': detail('The experiment name is used by a session of the workspace ("Session already exists."), or dataset_id and dataset_name name different datasets.'),
            '413': detail('The body is larger than 10 MiB.'),
            ...errors,
          },
        },
      },
      '/api/v1/datasets': {
        post: {
          summary: 'Create a dataset on the platform (not externally managed: uploads to it are refused)',
          requestBody: {
            required: true,
            ...json({ type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, description: { type: ['string', 'null'] } } }),
          },
          responses: { '200': { description: 'The dataset.', ...json(dataset) }, '409': detail('A dataset of that name exists.'), ...errors },
        },
        get: {
          summary: 'List datasets, newest first',
          parameters: [{ name: 'name', in: 'query', schema: { type: 'string' } }, ...pageParams],
          responses: { '200': { description: 'Datasets.', ...json({ type: 'array', items: dataset }) }, ...errors },
        },
      },
      '/api/v1/datasets/{dataset_id}': {
        get: {
          summary: 'Read a dataset',
          parameters: [uuidParam('dataset_id')],
          responses: { '200': { description: 'The dataset.', ...json(dataset) }, '404': detail('Unknown dataset id.'), ...errors },
        },
        delete: {
          summary: 'Delete a dataset with its examples and experiments',
          parameters: [uuidParam('dataset_id')],
          responses: { '204': { description: 'Deleted.' }, '404': detail('Unknown dataset id.'), ...errors },
        },
      },
      '/api/v1/sessions': {
        get: {
          summary: 'List sessions (experiments and tracing projects), newest first',
          parameters: [
            { name: 'name', in: 'query', schema: { type: 'string' } },
            { name: 'reference_dataset', in: 'query', description: 'Only experiments of this dataset.', schema: { type: 'string', format: 'uuid' } },
            { name: 'reference_free', in: 'query', description: 'true: only tracing projects; false: only experiments.', schema: { type: 'boolean' } },
            ...pageParams,
          ],
          responses: { '200': { description: 'Sessions.', ...json({ type: 'array', items: session }) }, ...errors },
        },
      },
      '/api/v1/sessions/{session_id}': {
        get: {
          summary: 'Read a session; an experiment shows its statistics once they are filled',
          parameters: [uuidParam('session_id')],
          responses: { '200': { description: 'The session.', ...json(session) }, '404': detail('Unknown session id.'), ...errors },
        },
        delete: {
          summary: 'Delete a session with its runs',
          parameters: [uuidParam('session_id')],
          responses: { '204': { description: 'Deleted.' }, '404': detail('Unknown session id.'), ...errors },
        },
      },
    },
  };
}

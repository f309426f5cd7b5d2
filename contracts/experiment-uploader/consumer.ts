// Consumer tests of experiment-uploader against the experiment upload endpoint (provider
// `experiment-upload`). Names and ids come from provider states, so repeated verifications never
// collide with earlier uploads. Imported by ../experiment-uploader.test.ts, which verifies the
// written pact right after.
import { HTTPResponseStatusClass, MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error.ts';
import { answered, consumerPact, reliesOn } from '../pact-setup.ts';
import { ExperimentUploader, type Upload } from './client.ts';

const { fromProviderState, matchStatus, regex, string, uuid } = MatchersV3;

export const CONSUMER = 'experiment-uploader';
export const PROVIDER = 'experiment-upload';

const KEY = 'example-upload-key';
const EXPERIMENT = 'nightly-eval-example';
const DATASET_NAME = 'support-questions-example';
const DATASET_ID = '2c4e6a8b-0d1f-4a3b-8c5d-7e9f0a1b2c3d';
const EXPERIMENT_ID = '7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910';
const ROW = 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e';
const headers = { 'x-api-key': regex('^.+$', KEY), 'Content-Type': 'application/json' };

function upload(dataset: Partial<Upload>, rowStart = '2024-08-03T00:10:00Z'): Upload {
  return {
    experiment_name: EXPERIMENT,
    experiment_start_time: '2024-08-03T00:00:00Z',
    experiment_end_time: '2024-08-03T01:00:00Z',
    ...dataset,
    results: [
      {
        row_id: ROW,
        inputs: { question: 'How do I reset my password?' },
        expected_outputs: { answer: 'Use the reset link.' },
        actual_outputs: { answer: 'Click "Forgot password".' },
        start_time: rowStart,
        end_time: '2024-08-03T00:10:02Z',
      },
    ],
  };
}

/** The request body template: names and ids injected from provider state at verification. */
function template(dataset: Record<string, unknown>, rowStart?: string): Record<string, unknown> {
  return { ...upload({}, rowStart), experiment_name: fromProviderState('${experimentName}', EXPERIMENT), ...dataset };
}

describe('consumer experiment-uploader → experiment-upload', () => {
  const pact = consumerPact(CONSUMER, PROVIDER);
  const uploader = (url: string) => new ExperimentUploader(url, KEY);

  it('uploads by dataset name', async () => {
    await pact
      .addInteraction()
      .given('names for a new experiment and dataset')
      .uponReceiving('an upload naming its dataset by name')
      .comment(reliesOn('EU-REQ-001', 'EU-DS-003', 'EU-TW-001', 'EU-RESP-003'))
      .withRequest('POST', '/api/v1/datasets/upload-experiment', (b) =>
        b.headers(headers).jsonBody(template({ dataset_name: fromProviderState('${datasetName}', DATASET_NAME) })),
      )
      .willRespondWith(matchStatus(200, HTTPResponseStatusClass.Success), (b) =>
        b.jsonBody({ dataset: { id: uuid(DATASET_ID), name: string(DATASET_NAME) }, experiment: { id: uuid(EXPERIMENT_ID), name: string(EXPERIMENT) } }),
      )
      .executeTest(answered(pact, async (server) => {
        const uploaded = await uploader(server.url).upload(upload({ dataset_name: DATASET_NAME }));
        expect(uploaded.dataset.id).toBe(DATASET_ID);
      }));
  });

  it('uploads by dataset id', async () => {
    await pact
      .addInteraction()
      .given('names for a new experiment and dataset')
      .uponReceiving('an upload naming its dataset by id')
      .comment(reliesOn('EU-REQ-001', 'EU-DS-002', 'EU-TW-001'))
      .withRequest('POST', '/api/v1/datasets/upload-experiment', (b) =>
        b.headers(headers).jsonBody(template({ dataset_id: fromProviderState('${datasetId}', DATASET_ID) })),
      )
      .willRespondWith(matchStatus(200, HTTPResponseStatusClass.Success), (b) =>
        b.jsonBody({ dataset: { id: uuid(DATASET_ID), name: string(DATASET_NAME) }, experiment: { id: uuid(EXPERIMENT_ID) } }),
      )
      .executeTest(answered(pact, async (server) => {
        const uploaded = await uploader(server.url).upload(upload({ dataset_id: DATASET_ID }));
        expect(uploaded.experiment.id).toBe(EXPERIMENT_ID);
      }));
  });

  it('is refused a row outside the experiment window', async () => {
    const early = '2024-08-02T23:59:59Z';
    await pact
      .addInteraction()
      .given('names for a new experiment and dataset')
      .uponReceiving('an upload with a row that starts before the experiment window')
      .comment(reliesOn('EU-TW-002'))
      .withRequest('POST', '/api/v1/datasets/upload-experiment', (b) =>
        b.headers(headers).jsonBody(template({ dataset_name: fromProviderState('${datasetName}', DATASET_NAME) }, early)),
      )
      .willRespondWith(matchStatus(422, HTTPResponseStatusClass.ClientError))
      .executeTest(answered(pact, async (server) => {
        const error = await uploader(server.url).upload(upload({ dataset_name: DATASET_NAME }, early)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).status).toBeGreaterThanOrEqual(400);
      }));
  });
});

// Consumer tests of deploy-pipeline against the control plane, hosted (provider `control-plane`,
// paths at the root) and self-hosted (provider `control-plane-self-hosted`, paths under
// /api-host). Each interaction asserts only what the pipeline uses. Imported by
// ../deploy-pipeline.test.ts, which verifies the written pacts right after.
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error.ts';
import { answered, consumerPact, reliesOn } from '../pact-setup.ts';
import { DeployPipeline } from './client.ts';

const { fromProviderState, eachLike, regex, string, uuid } = MatchersV3;

export const CONSUMER = 'deploy-pipeline';
/** Provider name per control plane mode, and the path prefix that mode serves the API under. */
export const PROVIDERS = {
  hosted: { provider: 'control-plane', prefix: '' },
  'self-hosted': { provider: 'control-plane-self-hosted', prefix: '/api-host' },
} as const;

const KEY = 'example-control-plane-key';
const TENANT = '4a1f7c2e-5b3d-4e6f-8a9b-0c1d2e3f4a5b';
const DEPLOYMENT = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const REVISION = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const NAME = 'checkout-agent';
const IMAGE = 'registry.example.test/acme/checkout-agent:1.4.0';
const SECRETS = [{ name: 'SERVICE_TOKEN', value: 'example-token' }];
const headers = {
  'X-Api-Key': regex('^.+$', KEY),
  'X-Tenant-Id': uuid(TENANT),
};
const jsonHeaders = { ...headers, 'Content-Type': 'application/json' };

for (const [mode, { provider, prefix }] of Object.entries(PROVIDERS)) {
  describe(`consumer deploy-pipeline → ${provider}`, () => {
    const pact = consumerPact(CONSUMER, provider);
    const path = (p: string) => `${prefix}${p}`;
    const statePath = (expression: string, example: string) => fromProviderState(path(expression), path(example));
    const pipeline = (url: string) => new DeployPipeline(url + prefix, KEY, TENANT);

    it(`creates a deployment (${mode})`, async () => {
      await pact
        .addInteraction()
        .given('a name for a new deployment')
        .uponReceiving('a request to create a deployment')
        .comment(reliesOn('CP-CREATE-001', 'CP-CREATE-003', 'CP-SRC-005', 'CP-VER-001'))
        .withRequest('POST', path('/v2/deployments'), (b) =>
          b.headers(jsonHeaders).jsonBody({
            name: fromProviderState('${name}', NAME),
            source: 'internal_container',
            source_config: {},
            source_revision_config: { image_uri: IMAGE },
            secrets: SECRETS,
          }),
        )
        .willRespondWith(201, (b) => b.jsonBody({ id: uuid(DEPLOYMENT), latest_revision_id: uuid(REVISION) }))
        .executeTest(answered(pact, async (server) => {
          const created = await pipeline(server.url).createDeployment(NAME, IMAGE, SECRETS);
          expect(created).toEqual({ id: DEPLOYMENT, latest_revision_id: REVISION });
        }));
    });

    it(`reads a deployment (${mode})`, async () => {
      await pact
        .addInteraction()
        .given('a deployment exists')
        .uponReceiving('a request to read a deployment')
        .comment(reliesOn('CP-READ-001'))
        .withRequest('GET', statePath('/v2/deployments/${deploymentId}', `/v2/deployments/${DEPLOYMENT}`), (b) => b.headers(headers))
        .willRespondWith(200, (b) => b.jsonBody({ id: uuid(DEPLOYMENT), latest_revision_id: uuid(REVISION), status: string('READY') }))
        .executeTest(answered(pact, async (server) => {
          expect((await pipeline(server.url).getDeployment(DEPLOYMENT)).latest_revision_id).toBe(REVISION);
        }));
    });

    it(`lists the revisions, newest first (${mode})`, async () => {
      await pact
        .addInteraction()
        .given('a deployment exists')
        .uponReceiving("a request to list a deployment's revisions")
        .comment(reliesOn('CP-REVL-001', 'CP-REVL-002', 'CP-REVL-003'))
        .withRequest('GET', statePath('/v2/deployments/${deploymentId}/revisions', `/v2/deployments/${DEPLOYMENT}/revisions`), (b) =>
          b.headers(headers),
        )
        .willRespondWith(200, (b) => b.jsonBody({ resources: eachLike({ id: uuid(REVISION), status: string('DEPLOYED') }) }))
        .executeTest(answered(pact, async (server) => {
          const [newest] = await pipeline(server.url).listRevisions(DEPLOYMENT);
          expect(newest?.id).toBe(REVISION);
        }));
    });

    it(`reads a revision (${mode})`, async () => {
      await pact
        .addInteraction()
        .given('a deployment exists')
        .uponReceiving('a request to read a revision')
        .comment(reliesOn('CP-REVL-004'))
        .withRequest(
          'GET',
          statePath('/v2/deployments/${deploymentId}/revisions/${revisionId}', `/v2/deployments/${DEPLOYMENT}/revisions/${REVISION}`),
          (b) => b.headers(headers),
        )
        .willRespondWith(200, (b) => b.jsonBody({ id: uuid(REVISION), status: string('DEPLOYED') }))
        .executeTest(answered(pact, async (server) => {
          expect((await pipeline(server.url).getRevision(DEPLOYMENT, REVISION)).status).toBe('DEPLOYED');
        }));
    });

    it(`rolls out a new image with a PATCH (${mode})`, async () => {
      await pact
        .addInteraction()
        .given('a deployment exists')
        .uponReceiving('a request to patch the image of a deployment')
        .comment(reliesOn('CP-PATCH-001', 'CP-REV-004', 'CP-REV-013'))
        .withRequest('PATCH', statePath('/v2/deployments/${deploymentId}', `/v2/deployments/${DEPLOYMENT}`), (b) =>
          b.headers(jsonHeaders).jsonBody({ source_revision_config: { image_uri: `${IMAGE}-next` } }),
        )
        .willRespondWith(200, (b) => b.jsonBody({ id: uuid(DEPLOYMENT), latest_revision_id: uuid(REVISION) }))
        .executeTest(answered(pact, async (server) => {
          const patched = await pipeline(server.url).rollOut(DEPLOYMENT, { source_revision_config: { image_uri: `${IMAGE}-next` } });
          expect(patched.latest_revision_id).toBe(REVISION);
        }));
    });

    it(`deletes a deployment (${mode})`, async () => {
      await pact
        .addInteraction()
        .given('a deployment exists')
        .uponReceiving('a request to delete a deployment')
        .comment(reliesOn('CP-DEL-001'))
        .withRequest('DELETE', statePath('/v2/deployments/${deploymentId}', `/v2/deployments/${DEPLOYMENT}`), (b) => b.headers(headers))
        .willRespondWith(204)
        .executeTest(answered(pact, async (server) => {
          await expect(pipeline(server.url).deleteDeployment(DEPLOYMENT)).resolves.toBeUndefined();
        }));
    });

    it(`gets a 404 with detail for an unknown deployment (${mode})`, async () => {
      await pact
        .addInteraction()
        .given('a deployment id that does not exist')
        .uponReceiving('a request to patch a deployment that does not exist')
        .comment(reliesOn('CP-ERR-001'))
        .withRequest('PATCH', statePath('/v2/deployments/${missingId}', `/v2/deployments/${DEPLOYMENT}`), (b) =>
          b.headers(jsonHeaders).jsonBody({ source_revision_config: { image_uri: IMAGE } }),
        )
        .willRespondWith(404, (b) => b.jsonBody({ detail: string(`Deployment ID ${DEPLOYMENT} not found.`) }))
        .executeTest(answered(pact, async (server) => {
          const error = await pipeline(server.url).rollOut(DEPLOYMENT, { source_revision_config: { image_uri: IMAGE } }).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).status).toBe(404);
          expect((error as ApiError).body).toEqual({ detail: `Deployment ID ${DEPLOYMENT} not found.` });
        }));
    });

    it(`gets a 422 HTTPValidationError for a malformed PATCH (${mode})`, async () => {
      await pact
        .addInteraction()
        .given('a deployment exists')
        .uponReceiving('a patch whose secrets are not a list')
        .comment(reliesOn('CP-ERR-003', 'CP-ERR-005'))
        .withRequest('PATCH', statePath('/v2/deployments/${deploymentId}', `/v2/deployments/${DEPLOYMENT}`), (b) =>
          b.headers(jsonHeaders).jsonBody({ secrets: 'SERVICE_TOKEN=example-token' }),
        )
        .willRespondWith(422, (b) => b.jsonBody({ detail: eachLike({ msg: string('Input should be a valid list') }) }))
        .executeTest(answered(pact, async (server) => {
          const error = await pipeline(server.url).rollOut(DEPLOYMENT, { secrets: 'SERVICE_TOKEN=example-token' }).catch((e: unknown) => e);
          expect((error as ApiError).status).toBe(422);
          expect((error as ApiError).body).toEqual({ detail: [{ msg: 'Input should be a valid list' }] });
        }));
    });
  });
}

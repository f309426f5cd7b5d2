// The schema of a target profile file (`--profile FILE`, written by `apc init`): every key the
// harness reads, and no other. A typo at any depth is refused with its path, so a mistyped
// setting can never silently fall back to a default. harness/profile/sources.ts applies it.
import { Type, type Static, type TOptional, type TSchema, type TString } from '@sinclair/typebox';

/** A string out of a fixed list, as a JSON Schema `enum` (its errors list the allowed values). */
const word = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description });

const closed = <P extends Record<string, TSchema>>(properties: P, description: string) =>
  Type.Object(properties, { additionalProperties: false, description });

const text = (description: string) => Type.String({ minLength: 1, description });
const count = (minimum: number, maximum: number, description: string) => Type.Integer({ minimum, maximum, description });
const millis = (description: string) => Type.Integer({ minimum: 1, description });

export const CONTROL_PLANE_MODES = ['hosted', 'self-hosted'] as const;
export const AGENT_SERVER_HOSTINGS = ['platform', 'self-run'] as const;
export const SOURCE_KIND_NAMES = ['gitforge', 'external_container', 'internal_container', 'internal_source'] as const;
/** accepted: it makes the revision (spec 3); refused: a 4xx with a `detail` until the latest revision ends (as an older platform did). */
export const BUSY_PATCH_ANSWERS = ['accepted', 'refused'] as const;
/**
 * Endpoints a target may lack: listeners are for self-hosted enterprise organizations (spec 1.A),
 * the experiment reads and dataset creation are the field notes', not the spec's. Every other
 * endpoint of the spec (upload-url, integrations, /docs) is always judged: an absent one fails its rule.
 */
export const OPTIONAL_ENDPOINT_NAMES = ['listeners', 'experiment-reads', 'dataset-create'] as const;
/** Endpoints that were optional in earlier profiles; naming one now says what to do. */
export const ALWAYS_JUDGED_ENDPOINTS = ['upload-url', 'integrations', 'docs'] as const;
/** Identifiers of the spec that hold a neutral word (spec, naming convention): what a target may spell its own way. */
export const VOCABULARY_WORDS = [
  'gitforge',
  'container',
  'cluster',
  'cache',
  'graph',
  'cluster_namespace',
  'external_container',
  'internal_container',
  'graph_config_path',
  'graph_id',
  'graph.json',
] as const;

const credentials = (description: string) =>
  closed(
    {
      apiKey: Type.Optional(text('the key itself (prefer apiKeyEnv, so the file holds no secret)')),
      apiKeyEnv: Type.Optional(text('name of the environment variable holding the key')),
      tenantId: Type.Optional(text('workspace id sent as X-Tenant-Id')),
    },
    description,
  );

export const TargetProfileFileSchema = closed(
  {
    urls: Type.Optional(
      closed(
        {
          'control-plane': Type.Optional(Type.String({ description: 'base URL of the control plane' })),
          'agent-server': Type.Optional(Type.String({ description: 'base URL of the agent server' })),
          'experiment-upload': Type.Optional(Type.String({ description: 'base URL of the experiment upload endpoint' })),
        },
        'base URL per interface; an interface without one is not certified',
      ),
    ),
    apiKey: Type.Optional(text('the key itself (prefer apiKeyEnv)')),
    apiKeyEnv: Type.Optional(text('name of the environment variable holding the key')),
    tenantId: Type.Optional(text('workspace id sent as X-Tenant-Id')),
    otherTenant: Type.Optional(
      credentials('a second workspace, for the tenant-scoping rules; without a key of its own, the main (organization) key acts for it'),
    ),
    foreignTenantId: Type.Optional(text('a workspace the main key may not act for (CP-TEN-005)')),
    busyPatch: Type.Optional(word(BUSY_PATCH_ANSWERS, 'how the target answers a revision-creating PATCH while a revision is in progress')),
    controlPlaneMode: Type.Optional(word(CONTROL_PLANE_MODES, 'hosted, or self-hosted (served under /api-host)')),
    agentServerHosting: Type.Optional(
      word(AGENT_SERVER_HOSTINGS, 'platform: deployed by the platform, authentication rules apply (spec 5); self-run: run outside the platform'),
    ),
    sources: Type.Optional(Type.Array(word(SOURCE_KIND_NAMES, 'a source kind'), { uniqueItems: true, description: 'source kinds the target offers' })),
    endpoints: Type.Optional(
      Type.Array(word(OPTIONAL_ENDPOINT_NAMES, 'an optional endpoint'), { uniqueItems: true, description: 'optional endpoints the target offers' }),
    ),
    vocabulary: Type.Optional(
      closed(
        Object.fromEntries(VOCABULARY_WORDS.map((w) => [w, Type.Optional(text(`the target's spelling of ${w}`))])) as Record<
          (typeof VOCABULARY_WORDS)[number],
          TOptional<TString>
        >,
        'how the target spells the spec\'s neutral words',
      ),
    ),
    fixtures: Type.Optional(
      closed(
        {
          graphId: Type.Optional(text('the conformance fixture graph (echo)')),
          failingGraphId: Type.Optional(text('a graph whose node fails')),
          imageUri: Type.Optional(text('an image URI that deploys')),
          otherImageUri: Type.Optional(text('a second image URI that deploys (another tag), for PATCHes that change revision values')),
          failingImageUri: Type.Optional(text('an image URI whose revision fails')),
          listenerId: Type.Optional(text('a listener id for external_container deployments')),
          clusterNamespace: Type.Optional(text('a cluster namespace for external_container deployments')),
          gitforge: Type.Optional(
            closed(
              {
                integrationId: Type.Optional(text('integration id')),
                repoUrl: Type.Optional(text('repository URL')),
                repoRef: Type.Optional(text('branch')),
                otherRepoRef: Type.Optional(text('a second branch, for PATCHes that change revision values')),
                graphConfigPath: Type.Optional(text('path of graph.json in the repository')),
                tagRef: Type.Optional(text('a tag, refs/tags/...')),
              },
              'the gitforge repository fixture',
            ),
          ),
        },
        'what valid requests name',
      ),
    ),
    timeouts: Type.Optional(
      closed(
        {
          requestMs: Type.Optional(millis('one exchange')),
          streamMs: Type.Optional(millis('one event stream')),
          deployMs: Type.Optional(millis('a revision reaching a terminal status')),
          deleteMs: Type.Optional(millis('a deleted deployment going away (default: deployMs)')),
          throttleMs: Type.Optional(millis('waiting out throttling (429) and transient errors (503) for one request')),
          statsMs: Type.Optional(millis('experiment statistics being filled')),
        },
        'deadlines in milliseconds',
      ),
    ),
    pollIntervalMs: Type.Optional(millis('revision polling interval')),
    concurrency: Type.Optional(count(1, 256, 'requests in flight against the target')),
    budget: Type.Optional(
      closed(
        {
          deployments: Type.Optional(count(0, 1_000_000, 'deployments the run may create')),
          revisions: Type.Optional(count(0, 1_000_000, 'revisions (builds) the run may create, the first of each deployment included')),
        },
        'what the run may create: tests beyond it are skipped, saying "budget"',
      ),
    ),
    redact: Type.Optional(Type.Array(Type.String(), { description: 'extra literals to hide everywhere' })),
    runs: Type.Optional(count(1, 100_000, 'fast-check runs per property')),
    seed: Type.Optional(count(-0x80000000, 0x7fffffff, 'seed of every property')),
    seeds: Type.Optional(count(1, 1000, 'seeds per property (more measure how reliably a deviation is found)')),
  },
  'an apc target profile',
);

export type TargetProfileFile = Static<typeof TargetProfileFileSchema>;

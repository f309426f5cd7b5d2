// The target profile: everything the harness knows about the implementation under test.
// Built from (lowest to highest precedence) defaults, a YAML profile file, APC_* environment
// variables and command-line flags; see harness/profile/sources.ts. The file's schema, with the
// lists of allowed words, is schemas/target-profile.ts.
import type { ReportedProfile } from '../../schemas/compliance-report.ts';
import { REDACTED } from '../redact.ts';
import { AGENT_SERVER_HOSTINGS, BUSY_PATCH_ANSWERS, CONTROL_PLANE_MODES, OPTIONAL_ENDPOINT_NAMES, SOURCE_KIND_NAMES } from '../../schemas/target-profile.ts';

import type { InterfaceName } from '../../schemas/vocabulary.ts';

export { INTERFACES, type InterfaceName } from '../../schemas/vocabulary.ts';

export type ControlPlaneMode = (typeof CONTROL_PLANE_MODES)[number];
/** Who runs the agent server: the platform (its auth rules apply, spec 5) or someone outside it. */
export type AgentServerHosting = (typeof AGENT_SERVER_HOSTINGS)[number];
/** How the target answers a revision-creating PATCH while a revision is in progress. */
export type BusyPatch = (typeof BUSY_PATCH_ANSWERS)[number];
export type SourceKind = (typeof SOURCE_KIND_NAMES)[number];
export const SOURCE_KINDS: readonly SourceKind[] = SOURCE_KIND_NAMES;

/** Optional endpoints a target may or may not offer; rules that need one are gated on it. */
export type OptionalEndpoint = (typeof OPTIONAL_ENDPOINT_NAMES)[number];
export const OPTIONAL_ENDPOINTS: readonly OptionalEndpoint[] = OPTIONAL_ENDPOINT_NAMES;
/** The interface that serves each optional endpoint. */
export const ENDPOINT_INTERFACE: Record<OptionalEndpoint, InterfaceName> = {
  listeners: 'control-plane',
  'experiment-reads': 'experiment-upload',
  'dataset-create': 'experiment-upload',
};

export interface Credentials {
  apiKey: string;
  tenantId?: string;
}

export interface TargetProfile {
  /** Base URL per interface; an interface without a URL is not certified. */
  urls: Partial<Record<InterfaceName, string>>;
  apiKey?: string;
  tenantId?: string;
  /**
   * A second workspace and the key that acts for it, for tenant-scoping rules (gated on its
   * presence). Its key is the main key when one organization key acts for both workspaces.
   */
  otherTenant?: Credentials;
  /** A workspace the main key may not act for (CP-TEN-005); see foreignTenant(). */
  foreignTenantId?: string;
  /** At most this many deployments and revisions (builds): tests beyond it are skipped, saying "budget". */
  budget?: Budget;
  /** How the target answers a revision-creating PATCH while a revision is in progress (apc init finds out). */
  busyPatch: BusyPatch;
  controlPlaneMode: ControlPlaneMode;
  agentServerHosting: AgentServerHosting;
  /** Source kinds the target offers. Default: every kind valid for the mode. */
  sources: SourceKind[];
  /** Optional endpoints the target offers. */
  endpoints: OptionalEndpoint[];
  /** How the target spells each neutral word of the spec (identity by default). */
  vocabulary: Record<string, string>;
  fixtures: Fixtures;
  timeouts: {
    /** One HTTP exchange. */
    requestMs: number;
    /** One event stream, from request to close. */
    streamMs: number;
    /** A revision reaching a terminal status (the real platform takes minutes). */
    deployMs: number;
    /** Experiment statistics being filled after upload. */
    statsMs: number;
    /** A deleted deployment going away (deletion may be asynchronous); the deploy timeout when absent. */
    deleteMs?: number;
    /** Waiting out throttling (429) and transient errors (503) for one request (a 503 without Retry-After: within requestMs). */
    throttleMs: number;
  };
  pollIntervalMs: number;
  /** At most this many requests in flight against the target. */
  concurrency: number;
  /** Extra literal values to redact everywhere (beyond the API keys and secret values sent). */
  redact: string[];
  /** fast-check runs per property. */
  runs: number;
  seed: number;
  /** Seeds per property (`--seeds`): 1 runs the run's own; more also measure how reliably each property finds a deviation. */
  seeds: number;
  /** Leave created resources in place at the end. */
  keep: boolean;
}

/** What a run may create on the target (`budget:` in the profile, `--budget`). */
export interface Budget {
  deployments?: number;
  revisions?: number;
}

/**
 * The budget of a target given by URL when neither the profile nor a flag sets one (`--budget
 * none` lifts it): on a real platform each deployment and build costs money. The run never passes
 * it (harness/budget/). Within it a full control-plane certification of the reference judges every
 * MUST (test/harness/budget.test.ts, test/self-cert/control-plane/busy-learned.test.ts).
 * The in-repo reference the harness starts is free, and has none.
 */
export const REMOTE_BUDGET: Readonly<Budget> = { deployments: 12, revisions: 40 };

/** The revision-creating PATCHes probing a target sends at most to learn `busyPatch` (harness/discovery/discovery.ts). */
export const BUSY_PATCH_PROBES = 2;

/**
 * What probing a target without a profile (`apc certify` by URL, as `apc init` does) creates at
 * most: a deployment of each source kind with its first revision, and the revisions of the busyPatch
 * probes. A run without a profile or a budget gets it on top of REMOTE_BUDGET, so its tests keep
 * the whole default (harness/run/plan.ts); a budget given is the whole run's, the probes' too.
 */
export const PROBE_BUDGET: Readonly<Required<Budget>> = { deployments: SOURCE_KINDS.length, revisions: SOURCE_KINDS.length + BUSY_PATCH_PROBES };

/** Whether the run has a budget: one that caps something (`budget: {}` and `--budget none` cap nothing). */
export const budgeted = (profile: Pick<TargetProfile, 'budget'>): boolean => profile.budget?.deployments !== undefined || profile.budget?.revisions !== undefined;

export interface Fixtures {
  /** Graph id of the conformance fixture graph (`echo`, see README). */
  graphId: string;
  /** A graph whose node fails, if the target serves one. */
  failingGraphId?: string;
  gitforge: {
    integrationId?: string;
    repoUrl: string;
    repoRef: string;
    /** A second branch: a PATCH to it changes the revision's values (CP-REV-014). */
    otherRepoRef?: string;
    graphConfigPath: string;
    /** A tag of the repository (`refs/tags/...`); a made-up one is used when absent. */
    tagRef?: string;
  };
  /** An image URI that deploys, for container sources. */
  imageUri: string;
  /** A second image URI that deploys (another tag): a PATCH to it changes the revision's values (CP-REV-014). */
  otherImageUri?: string;
  /** An image URI whose revision fails, if the target has one. */
  failingImageUri?: string;
  /** A listener id for external_container deployments (self-hosted). */
  listenerId?: string;
  clusterNamespace?: string;
}

export function defaultSources(mode: ControlPlaneMode): SourceKind[] {
  return mode === 'hosted'
    ? ['gitforge', 'internal_container', 'internal_source']
    : ['external_container', 'internal_container', 'internal_source'];
}

export function defaultProfile(): TargetProfile {
  return {
    urls: {},
    controlPlaneMode: 'hosted',
    agentServerHosting: 'platform',
    sources: defaultSources('hosted'),
    endpoints: [],
    busyPatch: 'accepted',
    vocabulary: {},
    fixtures: {
      graphId: 'echo',
      gitforge: { repoUrl: 'https://example.com/acme/agent', repoRef: 'main', graphConfigPath: 'graph.json' },
      imageUri: 'docker.io/acme/agent:1.0.0',
    },
    timeouts: { requestMs: 10_000, streamMs: 15_000, deployMs: 1_800_000, statsMs: 60_000, throttleMs: 120_000 },
    pollIntervalMs: 5_000,
    concurrency: 4,
    redact: [],
    runs: 25,
    seeds: 1,
    seed: Math.floor(Math.random() * 0x7fffffff),
    keep: false,
  };
}

/** Every secret literal of a profile, for redaction. */
export function profileSecrets(profile: TargetProfile): string[] {
  return [profile.apiKey, profile.otherTenant?.apiKey, ...profile.redact].filter(
    (v): v is string => typeof v === 'string' && v.length > 0,
  );
}

/** The profile as it may be written to a report: keys replaced by a marker. */
export function redactedProfile(profile: TargetProfile): TargetProfile & ReportedProfile {
  return {
    ...profile,
    apiKey: profile.apiKey ? REDACTED : undefined,
    otherTenant: profile.otherTenant && { ...profile.otherTenant, apiKey: REDACTED },
    redact: profile.redact.map(() => REDACTED),
  };
}

/**
 * The workspace CP-TEN-005 names with the main key: `foreignTenantId`, else the second workspace
 * when it has a key of its own (its own key, its own workspace). A second workspace the main key
 * acts for too (an organization key) is no such workspace.
 */
export function foreignTenant(profile: TargetProfile): string | undefined {
  if (profile.foreignTenantId) return profile.foreignTenantId;
  const other = profile.otherTenant;
  return other?.tenantId && other.apiKey !== profile.apiKey ? other.tenantId : undefined;
}

// With no target URL, `apc certify` certifies the in-repo reference implementation: it starts
// it (in this process, or as a container of the product image: harness/reference/reference-container.ts)
// with two keys (two tenants, for the scoping rules), fast revision phases, and a profile that
// offers every optional endpoint and fixture the reference has.
import { randomBytes, randomUUID } from 'node:crypto';
import type { ApiKeyGrant } from '../../reference-impl/options.ts';
import type { PlatformLikeOptions } from '../../reference-impl/platform-like/behaviours.ts';
import type { BusyPatch, ControlPlaneMode, InterfaceName, TargetProfile } from '../profile/profile.ts';
import { defaultProfile, defaultSources, OPTIONAL_ENDPOINTS } from '../profile/profile.ts';
import type { PostgresContainer } from './postgres-container.ts';
import type { Redactor } from '../redact.ts';
import { databaseOf, type ReferenceLaunch, type StartedReference } from './reference-launch.ts';

export type ReferenceKind = 'process' | 'container';
export type ReferenceDatabase = 'memory' | 'postgres';

export interface ReferenceStartOptions {
  mode: ControlPlaneMode;
  faults?: string[];
  /** Default process. */
  kind?: ReferenceKind;
  /** Default memory; postgres starts PostgreSQL in a container. */
  database?: ReferenceDatabase;
  /** Where image names come from (APC_BASE_IMAGE, APC_POSTGRES_IMAGE). */
  env?: NodeJS.ProcessEnv;
  /** Progress lines (building an image takes a while). */
  log?: (line: string) => void;
  /** Learns the started database's password: the run's redactor (default: the process's, a one-shot command's). */
  redactor?: Redactor;
  /** Length of each revision phase (default 10 ms). */
  phaseMs?: number;
  /** Behave as the real hosted platform does (reference-impl/platform-like/README.md). */
  platformLike?: PlatformLikeOptions;
}

export interface ReferenceTarget extends StartedReference {
  mode: ControlPlaneMode;
  grants: ApiKeyGrant[];
  apply(profile: TargetProfile): void;
}

/** Profile defaults for the reference, which answers in milliseconds; flags and APC_* still win. */
export function referenceProfileBase(): TargetProfile {
  const base = defaultProfile();
  base.timeouts = { ...base.timeouts, requestMs: 10_000, streamMs: 10_000, deployMs: 30_000, statsMs: 15_000 };
  base.pollIntervalMs = 20;
  return base;
}

async function startInProcess(launch: ReferenceLaunch, database: PostgresContainer | undefined): Promise<StartedReference> {
  // Loaded on demand: certifying a remote target never loads the reference implementation.
  const { startReference } = await import('../../reference-impl/index.ts');
  const server = await startReference({
    mode: launch.mode,
    apiKeys: launch.grants,
    phaseMs: launch.phaseMs,
    statsDelayMs: launch.statsDelayMs,
    faults: launch.faults,
    ...(launch.platformLike ? { platformLike: launch.platformLike } : {}),
    ...(database ? { databaseUrl: database.urlFromHost } : {}),
  });
  return {
    urls: { 'control-plane': server.urls.controlPlane, 'agent-server': server.urls.agentServer, 'experiment-upload': server.urls.experimentUpload },
    instance: { kind: 'process', pid: process.pid, node: process.version, ...databaseOf(database) },
    close: () => server.close(),
  };
}

export async function startReferenceTarget(options: ReferenceStartOptions): Promise<ReferenceTarget> {
  const grants = [0, 1].map(() => ({ key: `apc-ref-${randomBytes(18).toString('base64url')}`, tenants: [randomUUID()] }));
  const launch: ReferenceLaunch = {
    mode: options.mode,
    grants,
    faults: options.faults ?? [],
    phaseMs: options.phaseMs ?? 10,
    statsDelayMs: 300,
    platformLike: options.platformLike,
    env: options.env ?? process.env,
    log: options.log ?? (() => undefined),
  };
  const kind = options.kind ?? 'process';
  // Containers are loaded on demand too: testcontainers is only needed when Docker is used.
  const database =
    options.database === 'postgres'
      ? await (await import('./postgres-container.ts')).startPostgresContainer(launch.env, kind === 'container', launch.log, options.redactor)
      : undefined;
  let started: StartedReference;
  try {
    if (kind === 'container') {
      const { startReferenceContainer } = await import('./reference-container.ts');
      started = await startReferenceContainer(launch, database);
    } else {
      started = await startInProcess(launch, database);
    }
  } catch (error) {
    await database?.stop();
    throw error;
  }
  const { mode } = options;
  return {
    ...started,
    mode,
    grants,
    async close() {
      await started.close();
      await database?.stop();
    },
    apply: (profile) =>
      applyReference(profile, {
        urls: started.urls,
        grants,
        mode,
        busyPatch: options.platformLike?.behaviours.includes('busy-deployments') ? 'refused' : 'accepted',
      }),
  };
}

/**
 * Points a profile at a started reference: its URLs, its two keys (two tenants), its mode, and
 * every optional endpoint and fixture it offers.
 */
export function applyReference(
  profile: TargetProfile,
  reference: { urls: Record<InterfaceName, string>; grants: ApiKeyGrant[]; mode: ControlPlaneMode; busyPatch?: BusyPatch },
): void {
  const { urls, grants, mode } = reference;
  // The platform-like reference refuses a revision-creating PATCH while busy (busy-deployments).
  profile.busyPatch = reference.busyPatch ?? 'accepted';
  profile.urls = { ...urls };
  profile.apiKey = grants[0]!.key;
  profile.tenantId = grants[0]!.tenants[0]!;
  profile.otherTenant = { apiKey: grants[1]!.key, tenantId: grants[1]!.tenants[0]! };
  profile.controlPlaneMode = mode;
  profile.sources = defaultSources(mode);
  profile.endpoints = [...OPTIONAL_ENDPOINTS].filter((e) => mode === 'self-hosted' || e !== 'listeners');
  profile.fixtures = {
    ...profile.fixtures,
    failingGraphId: 'fail',
    // The reference fails a build whose image URI contains `fail-build` (reference-impl/control-plane/README.md).
    failingImageUri: 'registry.invalid/acme/agent:fail-build',
    // The reference deploys any other image and ref: second values let CP-REV-014 change them.
    otherImageUri: 'docker.io/acme/agent:1.0.1',
    gitforge: { ...profile.fixtures.gitforge, otherRepoRef: 'release' },
    ...(mode === 'self-hosted' ? { clusterNamespace: 'agents' } : {}),
  };
}

/**
 * A YAML profile that certifies a started reference by URL with everything it offers, as
 * `apc certify` does with no URL; keys come from APC_API_KEY and APC_OTHER_API_KEY.
 */
export function referenceProfileFile(target: Pick<ReferenceTarget, 'apply' | 'urls'>): Record<string, unknown> {
  const applied = defaultProfile();
  target.apply(applied);
  const base = referenceProfileBase();
  return {
    urls: target.urls,
    apiKeyEnv: 'APC_API_KEY',
    tenantId: applied.tenantId,
    otherTenant: { apiKeyEnv: 'APC_OTHER_API_KEY', tenantId: applied.otherTenant!.tenantId },
    controlPlaneMode: applied.controlPlaneMode,
    busyPatch: applied.busyPatch,
    sources: applied.sources,
    endpoints: applied.endpoints,
    fixtures: applied.fixtures,
    timeouts: base.timeouts,
    pollIntervalMs: base.pollIntervalMs,
    // The reference is free: no budget (a target given by URL otherwise gets REMOTE_BUDGET).
    budget: {},
  };
}

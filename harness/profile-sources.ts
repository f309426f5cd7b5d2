// Builds a TargetProfile from defaults, a YAML profile file, APC_* environment variables and
// command-line flags, in that order of precedence. Every problem is a ProfileError that names
// the setting, what was expected and what was found.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import {
  defaultProfile,
  defaultSources,
  INTERFACES,
  OPTIONAL_ENDPOINTS,
  SOURCE_KINDS,
  type ControlPlaneMode,
  type InterfaceName,
  type OptionalEndpoint,
  type SourceKind,
  type TargetProfile,
} from './profile.ts';

export class ProfileError extends Error {}

/** Settings as they arrive from flags or the environment: strings, before validation. */
export interface ProfileSettings {
  profileFile?: string;
  controlPlaneUrl?: string;
  agentServerUrl?: string;
  tracingUrl?: string;
  apiKey?: string;
  tenantId?: string;
  otherApiKey?: string;
  otherTenantId?: string;
  controlPlaneMode?: string;
  runs?: string;
  seed?: string;
  keep?: boolean;
  concurrency?: string;
  pollIntervalMs?: string;
  requestTimeoutMs?: string;
  streamTimeoutMs?: string;
  deployTimeoutMs?: string;
}

export const ENV_NAMES: Record<Exclude<keyof ProfileSettings, 'keep'>, string> = {
  profileFile: 'APC_PROFILE',
  controlPlaneUrl: 'APC_CONTROL_PLANE_URL',
  agentServerUrl: 'APC_AGENT_SERVER_URL',
  tracingUrl: 'APC_TRACING_URL',
  apiKey: 'APC_API_KEY',
  tenantId: 'APC_TENANT_ID',
  otherApiKey: 'APC_OTHER_API_KEY',
  otherTenantId: 'APC_OTHER_TENANT_ID',
  controlPlaneMode: 'APC_CONTROL_PLANE_MODE',
  runs: 'APC_RUNS',
  seed: 'APC_SEED',
  concurrency: 'APC_CONCURRENCY',
  pollIntervalMs: 'APC_POLL_INTERVAL_MS',
  requestTimeoutMs: 'APC_REQUEST_TIMEOUT_MS',
  streamTimeoutMs: 'APC_STREAM_TIMEOUT_MS',
  deployTimeoutMs: 'APC_DEPLOY_TIMEOUT_MS',
};

export function settingsFromEnv(env: NodeJS.ProcessEnv): ProfileSettings {
  const out: ProfileSettings = {};
  for (const [key, name] of Object.entries(ENV_NAMES) as [keyof typeof ENV_NAMES, string][]) {
    const value = env[name];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}

function integer(name: string, text: string | number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = typeof text === 'number' ? text : Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ProfileError(`${name}: expected an integer from ${min} to ${max}, found ${JSON.stringify(text)}.`);
  }
  return value;
}

function url(name: string, text: unknown): string {
  if (typeof text !== 'string') throw new ProfileError(`${name}: expected a URL, found ${JSON.stringify(text)}.`);
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new ProfileError(`${name}: expected an http(s) URL such as http://127.0.0.1:8000, found ${JSON.stringify(text)}.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ProfileError(`${name}: expected an http or https URL, found ${JSON.stringify(text)}.`);
  }
  return text.replace(/\/+$/, '');
}

function mode(name: string, text: unknown): ControlPlaneMode {
  if (text === 'hosted' || text === 'self-hosted') return text;
  throw new ProfileError(`${name}: expected "hosted" or "self-hosted", found ${JSON.stringify(text)}.`);
}

function listOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T[] {
  if (!Array.isArray(value) || !value.every((v) => allowed.includes(v as T))) {
    throw new ProfileError(`${name}: expected a list of ${allowed.join(', ')}; found ${JSON.stringify(value)}.`);
  }
  return value as T[];
}

function record(name: string, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ProfileError(`${name}: expected a mapping, found ${JSON.stringify(value)}.`);
  }
  return value as Record<string, unknown>;
}

function str(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw new ProfileError(`${name}: expected a string, found ${JSON.stringify(value)}.`);
  return value;
}

/**
 * A YAML profile mirrors TargetProfile. Secrets may be given by environment variable name
 * (`apiKeyEnv: MY_KEY`) so profile files can be committed without them.
 */
function applyFile(profile: TargetProfile, file: string, env: NodeJS.ProcessEnv): void {
  let doc: Record<string, unknown>;
  try {
    doc = record(file, parse(readFileSync(file, 'utf8')) ?? {});
  } catch (error) {
    if (error instanceof ProfileError) throw error;
    throw new ProfileError(`profile ${file}: ${(error as Error).message}`);
  }
  const at = (key: string) => `${file}: ${key}`;
  const known = new Set([
    'urls', 'apiKey', 'apiKeyEnv', 'tenantId', 'otherTenant', 'controlPlaneMode', 'sources', 'endpoints', 'vocabulary',
    'fixtures', 'timeouts', 'pollIntervalMs', 'concurrency', 'redact', 'runs', 'seed',
  ]);
  for (const key of Object.keys(doc)) {
    if (!known.has(key)) throw new ProfileError(`${at(key)}: unknown setting; known settings are ${[...known].join(', ')}.`);
  }
  if (doc.urls !== undefined) {
    for (const [k, v] of Object.entries(record(at('urls'), doc.urls))) {
      if (!INTERFACES.includes(k as InterfaceName)) throw new ProfileError(`${at('urls')}: unknown interface "${k}"; use ${INTERFACES.join(', ')}.`);
      profile.urls[k as InterfaceName] = url(at(`urls.${k}`), v);
    }
  }
  if (doc.apiKey !== undefined) profile.apiKey = str(at('apiKey'), doc.apiKey);
  if (doc.apiKeyEnv !== undefined) {
    const name = str(at('apiKeyEnv'), doc.apiKeyEnv);
    const value = env[name];
    if (!value) throw new ProfileError(`${at('apiKeyEnv')}: the environment variable ${name} is not set.`);
    profile.apiKey = value;
  }
  if (doc.tenantId !== undefined) profile.tenantId = str(at('tenantId'), doc.tenantId);
  if (doc.otherTenant !== undefined) {
    const other = record(at('otherTenant'), doc.otherTenant);
    const key = other.apiKeyEnv !== undefined ? env[str(at('otherTenant.apiKeyEnv'), other.apiKeyEnv)] : other.apiKey;
    profile.otherTenant = { apiKey: str(at('otherTenant.apiKey'), key), ...(other.tenantId ? { tenantId: str(at('otherTenant.tenantId'), other.tenantId) } : {}) };
  }
  if (doc.controlPlaneMode !== undefined) {
    profile.controlPlaneMode = mode(at('controlPlaneMode'), doc.controlPlaneMode);
    profile.sources = defaultSources(profile.controlPlaneMode);
  }
  if (doc.sources !== undefined) profile.sources = listOf<SourceKind>(at('sources'), doc.sources, SOURCE_KINDS);
  if (doc.endpoints !== undefined) profile.endpoints = listOf<OptionalEndpoint>(at('endpoints'), doc.endpoints, OPTIONAL_ENDPOINTS);
  if (doc.vocabulary !== undefined) {
    profile.vocabulary = Object.fromEntries(
      Object.entries(record(at('vocabulary'), doc.vocabulary)).map(([k, v]) => [k, str(at(`vocabulary.${k}`), v)]),
    );
  }
  if (doc.fixtures !== undefined) {
    const f = record(at('fixtures'), doc.fixtures);
    const gitforge = f.gitforge === undefined ? {} : record(at('fixtures.gitforge'), f.gitforge);
    profile.fixtures = {
      ...profile.fixtures,
      ...(f as Partial<TargetProfile['fixtures']>),
      gitforge: { ...profile.fixtures.gitforge, ...(gitforge as Partial<TargetProfile['fixtures']['gitforge']>) },
    };
  }
  if (doc.timeouts !== undefined) {
    const t = record(at('timeouts'), doc.timeouts);
    for (const key of ['requestMs', 'streamMs', 'deployMs', 'statsMs'] as const) {
      if (t[key] !== undefined) profile.timeouts[key] = integer(at(`timeouts.${key}`), t[key] as number, 1);
    }
  }
  if (doc.pollIntervalMs !== undefined) profile.pollIntervalMs = integer(at('pollIntervalMs'), doc.pollIntervalMs as number, 1);
  if (doc.concurrency !== undefined) profile.concurrency = integer(at('concurrency'), doc.concurrency as number, 1, 256);
  if (doc.redact !== undefined) {
    if (!Array.isArray(doc.redact) || !doc.redact.every((v) => typeof v === 'string')) {
      throw new ProfileError(`${at('redact')}: expected a list of strings to redact.`);
    }
    profile.redact = doc.redact;
  }
  if (doc.runs !== undefined) profile.runs = integer(at('runs'), doc.runs as number, 1, 100_000);
  if (doc.seed !== undefined) profile.seed = integer(at('seed'), doc.seed as number, -0x80000000, 0x7fffffff);
}

/** Flags win over the environment, which wins over the profile file, which wins over `base`. */
export function buildProfile(flags: ProfileSettings, env: NodeJS.ProcessEnv, base: TargetProfile = defaultProfile()): TargetProfile {
  const fromEnv = settingsFromEnv(env);
  const s: ProfileSettings = { ...fromEnv, ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) };
  const profile = structuredClone(base);
  if (s.profileFile) applyFile(profile, s.profileFile, env);
  const flagName = (key: keyof typeof ENV_NAMES) =>
    flags[key] !== undefined ? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : ENV_NAMES[key];
  if (s.controlPlaneUrl) profile.urls['control-plane'] = url(flagName('controlPlaneUrl'), s.controlPlaneUrl);
  if (s.agentServerUrl) profile.urls['agent-server'] = url(flagName('agentServerUrl'), s.agentServerUrl);
  if (s.tracingUrl) profile.urls['experiment-upload'] = url(flagName('tracingUrl'), s.tracingUrl);
  if (s.apiKey) profile.apiKey = s.apiKey;
  if (s.tenantId) profile.tenantId = s.tenantId;
  if (s.otherApiKey) profile.otherTenant = { apiKey: s.otherApiKey, ...(s.otherTenantId ? { tenantId: s.otherTenantId } : {}) };
  if (s.controlPlaneMode) {
    profile.controlPlaneMode = mode(flagName('controlPlaneMode'), s.controlPlaneMode);
    profile.sources = defaultSources(profile.controlPlaneMode);
  }
  if (s.runs) profile.runs = integer(flagName('runs'), s.runs, 1, 100_000);
  if (s.seed) profile.seed = integer(flagName('seed'), s.seed, -0x80000000, 0x7fffffff);
  if (s.concurrency) profile.concurrency = integer(flagName('concurrency'), s.concurrency, 1, 256);
  if (s.pollIntervalMs) profile.pollIntervalMs = integer(flagName('pollIntervalMs'), s.pollIntervalMs, 1);
  if (s.requestTimeoutMs) profile.timeouts.requestMs = integer(flagName('requestTimeoutMs'), s.requestTimeoutMs, 1);
  if (s.streamTimeoutMs) profile.timeouts.streamMs = integer(flagName('streamTimeoutMs'), s.streamTimeoutMs, 1);
  if (s.deployTimeoutMs) profile.timeouts.deployMs = integer(flagName('deployTimeoutMs'), s.deployTimeoutMs, 1);
  if (flags.keep) profile.keep = true;
  return profile;
}

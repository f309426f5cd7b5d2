// Builds a TargetProfile from defaults, a YAML profile file, APC_* environment variables and
// command-line flags, in that order of precedence. Every problem is a ProfileError that names
// the setting, what was expected and what was found.
import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { compileSchema } from '../../schemas/index.ts';
import { AGENT_SERVER_HOSTINGS, ALWAYS_JUDGED_ENDPOINTS, CONTROL_PLANE_MODES, TargetProfileFileSchema, type TargetProfileFile } from '../../schemas/target-profile.ts';
import { closest } from '../closest.ts';
import { yaml } from '../yaml.ts';
import { defaultProfile, defaultSources, type Budget, type InterfaceName, type TargetProfile } from './profile.ts';
import { UsageError } from '../usage-error.ts';
import { apcCommand } from '../apc-command.ts';

export class ProfileError extends UsageError {}

/** Stands for the main key in a second workspace of the file until the main key is known. */
const MAIN_KEY = '\u0000main-key';

/** Settings as they arrive from flags or the environment: strings, before validation. */
export interface ProfileSettings {
  profileFile?: string;
  /**
   * A profile given as the document a profile file holds, checked the same way (apc selftest and
   * the tests certify in their process without writing a file); a profile file wins over it.
   */
  profileDocument?: unknown;
  controlPlaneUrl?: string;
  agentServerUrl?: string;
  tracingUrl?: string;
  apiKey?: string;
  tenantId?: string;
  otherApiKey?: string;
  otherTenantId?: string;
  controlPlaneMode?: string;
  agentServerHosting?: string;
  runs?: string;
  seed?: string;
  seeds?: string;
  keep?: boolean;
  concurrency?: string;
  pollIntervalMs?: string;
  requestTimeoutMs?: string;
  streamTimeoutMs?: string;
  deployTimeoutMs?: string;
  /** `--budget deployments=N,revisions=M`. */
  budget?: string;
}

export const ENV_NAMES: Record<Exclude<keyof ProfileSettings, 'keep' | 'profileDocument'>, string> = {
  profileFile: 'APC_PROFILE',
  controlPlaneUrl: 'APC_CONTROL_PLANE_URL',
  agentServerUrl: 'APC_AGENT_SERVER_URL',
  tracingUrl: 'APC_TRACING_URL',
  apiKey: 'APC_API_KEY',
  tenantId: 'APC_TENANT_ID',
  otherApiKey: 'APC_OTHER_API_KEY',
  otherTenantId: 'APC_OTHER_TENANT_ID',
  controlPlaneMode: 'APC_CONTROL_PLANE_MODE',
  agentServerHosting: 'APC_AGENT_SERVER_HOSTING',
  runs: 'APC_RUNS',
  seed: 'APC_SEED',
  seeds: 'APC_SEEDS',
  concurrency: 'APC_CONCURRENCY',
  pollIntervalMs: 'APC_POLL_INTERVAL_MS',
  requestTimeoutMs: 'APC_REQUEST_TIMEOUT_MS',
  streamTimeoutMs: 'APC_STREAM_TIMEOUT_MS',
  deployTimeoutMs: 'APC_DEPLOY_TIMEOUT_MS',
  budget: 'APC_BUDGET',
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

function oneOf<T extends string>(name: string, text: unknown, allowed: readonly T[]): T {
  if (allowed.includes(text as T)) return text as T;
  throw new ProfileError(`${name}: expected ${allowed.map((a) => JSON.stringify(a)).join(' or ')}, found ${JSON.stringify(text)}.`);
}

/** `/fixtures/gitforge/repoUrl` → `fixtures.gitforge.repoUrl`, `/sources/1` → `sources[1]`. */
function keyPath(instancePath: string, key?: string): string {
  const parts = [...instancePath.split('/').slice(1), ...(key === undefined ? [] : [key])].map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/** One line per schema problem: the key path, what is wrong, and what is allowed. */
function problemOf(error: ErrorObject): string {
  const at = keyPath(error.instancePath);
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = (error.params as { additionalProperty: string }).additionalProperty;
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const near = closest(key, known, 1)[0];
      return `${keyPath(error.instancePath, key)}: unknown setting${near ? `; did you mean ${keyPath(error.instancePath, near)}?` : '.'} Known settings${at ? ` under ${at}` : ''}: ${known.join(', ')}.`;
    }
    case 'enum': {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map(String);
      if (/^endpoints\[\d+\]$/.test(at) && (ALWAYS_JUDGED_ENDPOINTS as readonly unknown[]).includes(error.data)) {
        return `${at}: ${JSON.stringify(error.data)} is an endpoint the spec defines, so it is always judged (an absent one fails its rule); remove it from endpoints. Optional endpoints: ${allowed.join(', ')}.`;
      }
      const near = typeof error.data === 'string' ? closest(error.data, allowed, 1)[0] : undefined;
      return `${at}: ${JSON.stringify(error.data)} is not allowed${near ? `; did you mean ${JSON.stringify(near)}?` : '.'} Allowed: ${allowed.join(', ')}.`;
    }
    case 'type':
      return `${at || 'the profile'}: expected ${(error.params as { type: string }).type === 'object' ? 'a mapping' : `a value of type ${(error.params as { type: string }).type}`}, found ${JSON.stringify(error.data)}.`;
    default:
      return `${at || 'the profile'}: ${error.message ?? 'invalid'}, found ${JSON.stringify(error.data)}.`;
  }
}

/** The profile file, parsed and checked against schemas/target-profile.ts. */
function readProfileFile(file: string): TargetProfileFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : code === 'EACCES' ? 'not readable (permission denied)' : (error as Error).message;
    throw new ProfileError(`profile ${file}: ${why}. --profile (or APC_PROFILE) names a YAML file; \`${apcCommand()} init\` writes one for a target.`);
  }
  let doc: unknown;
  try {
    doc = yaml().parse(text) ?? {};
  } catch (error) {
    // file:line:column first, as editors and CI annotate it, whatever the parser's own wording.
    const at = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    const message = (error as Error).message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new ProfileError(`profile ${file}${at ? `:${at.line}:${at.col}` : ''}: not valid YAML: ${message}`);
  }
  return checkedProfile(file, doc);
}

/** A profile document checked against schemas/target-profile.ts; `file` names it in problems. */
function checkedProfile(file: string, doc: unknown): TargetProfileFile {
  const check = compileSchema(TargetProfileFileSchema);
  if (check(doc)) return doc as TargetProfileFile;
  // An `enum` error inside an array repeats per item; one line per path and problem is enough.
  const problems = [...new Set((check.errors ?? []).map(problemOf))];
  throw new ProfileError(`profile ${file} has ${problems.length} problem(s):\n  ${problems.join('\n  ')}\nFix the file (README: "Profile file" lists every setting) and run again.`);
}

function secretFrom(where: string, given: { apiKey?: string; apiKeyEnv?: string }, env: NodeJS.ProcessEnv): string | undefined {
  if (given.apiKeyEnv === undefined) return given.apiKey;
  const value = env[given.apiKeyEnv];
  if (!value) throw new ProfileError(`${where}: the environment variable ${given.apiKeyEnv} is not set; export it (the key is never written to the profile).`);
  return value;
}

/**
 * A YAML profile mirrors TargetProfile. Secrets may be given by environment variable name
 * (`apiKeyEnv: MY_KEY`) so profile files can be committed without them. Returns whether it
 * named the sources.
 */
function applyFile(profile: TargetProfile, file: string, doc: TargetProfileFile, env: NodeJS.ProcessEnv): boolean {
  const at = (key: string) => `${file}: ${key}`;
  for (const [k, v] of Object.entries(doc.urls ?? {})) profile.urls[k as InterfaceName] = url(at(`urls.${k}`), v);
  const key = secretFrom(at('apiKeyEnv'), doc, env);
  if (key !== undefined) profile.apiKey = key;
  if (doc.tenantId !== undefined) profile.tenantId = doc.tenantId;
  if (doc.otherTenant !== undefined) {
    // Without a key of its own, the second workspace is one the main (organization) key acts for:
    // buildProfile gives it the main key once flags and environment have named that.
    const other = secretFrom(at('otherTenant.apiKeyEnv'), doc.otherTenant, env);
    if (other === undefined && !doc.otherTenant.tenantId) throw new ProfileError(`${at('otherTenant')}: give its tenantId, and apiKeyEnv (or apiKey) unless the main key acts for it too.`);
    profile.otherTenant = { apiKey: other ?? MAIN_KEY, ...(doc.otherTenant.tenantId ? { tenantId: doc.otherTenant.tenantId } : {}) };
  }
  if (doc.foreignTenantId !== undefined) profile.foreignTenantId = doc.foreignTenantId;
  if (doc.busyPatch !== undefined) profile.busyPatch = doc.busyPatch;
  if (doc.controlPlaneMode !== undefined) profile.controlPlaneMode = doc.controlPlaneMode;
  if (doc.agentServerHosting !== undefined) profile.agentServerHosting = doc.agentServerHosting;
  if (doc.sources !== undefined) profile.sources = doc.sources;
  if (doc.endpoints !== undefined) profile.endpoints = doc.endpoints;
  if (doc.vocabulary !== undefined) profile.vocabulary = doc.vocabulary as Record<string, string>;
  if (doc.fixtures !== undefined) {
    const { gitforge, ...rest } = doc.fixtures;
    profile.fixtures = { ...profile.fixtures, ...rest, gitforge: { ...profile.fixtures.gitforge, ...gitforge } };
  }
  if (doc.timeouts !== undefined) profile.timeouts = { ...profile.timeouts, ...doc.timeouts };
  if (doc.pollIntervalMs !== undefined) profile.pollIntervalMs = doc.pollIntervalMs;
  if (doc.concurrency !== undefined) profile.concurrency = doc.concurrency;
  if (doc.budget !== undefined) profile.budget = doc.budget;
  if (doc.redact !== undefined) profile.redact = doc.redact;
  if (doc.runs !== undefined) profile.runs = doc.runs;
  if (doc.seed !== undefined) profile.seed = doc.seed;
  if (doc.seeds !== undefined) profile.seeds = doc.seeds;
  return doc.sources !== undefined;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Flags win over the environment, which wins over the profile file, which wins over `base`. */
export function buildProfile(flags: ProfileSettings, env: NodeJS.ProcessEnv, base: TargetProfile = defaultProfile()): TargetProfile {
  const fromEnv = settingsFromEnv(env);
  const s: ProfileSettings = { ...fromEnv, ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) };
  const profile = structuredClone(base);
  // Sources follow the mode unless someone named them: the base (a recorded profile), the file.
  // A document given stands for a --profile flag: it wins over APC_PROFILE.
  const file = flags.profileFile ?? (flags.profileDocument === undefined ? s.profileFile : undefined);
  const document = file ? { file, doc: readProfileFile(file) } : flags.profileDocument !== undefined ? { file: 'profile', doc: checkedProfile('profile', flags.profileDocument) } : undefined;
  const fileNamedSources = document ? applyFile(profile, document.file, document.doc, env) : false;
  const sourcesNamed = fileNamedSources || !sameSet(base.sources, defaultSources(base.controlPlaneMode));
  const flagName = (key: keyof typeof ENV_NAMES) =>
    flags[key] !== undefined ? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : ENV_NAMES[key];
  if (s.controlPlaneUrl) profile.urls['control-plane'] = url(flagName('controlPlaneUrl'), s.controlPlaneUrl);
  if (s.agentServerUrl) profile.urls['agent-server'] = url(flagName('agentServerUrl'), s.agentServerUrl);
  if (s.tracingUrl) profile.urls['experiment-upload'] = url(flagName('tracingUrl'), s.tracingUrl);
  if (s.apiKey) profile.apiKey = s.apiKey;
  if (s.tenantId) profile.tenantId = s.tenantId;
  // Each names one field of the second tenant: the other field keeps what the file said.
  const fileKey = profile.otherTenant?.apiKey === MAIN_KEY ? profile.apiKey : profile.otherTenant?.apiKey;
  if (profile.otherTenant?.apiKey === MAIN_KEY && !fileKey && !s.otherApiKey) {
    throw new ProfileError('otherTenant: it has no key of its own, and no main key is given to act for it (--api-key, APC_API_KEY or apiKeyEnv).');
  }
  const otherKey = s.otherApiKey ?? fileKey;
  if (otherKey) {
    const otherTenantId = s.otherTenantId ?? profile.otherTenant?.tenantId;
    profile.otherTenant = { apiKey: otherKey, ...(otherTenantId ? { tenantId: otherTenantId } : {}) };
  }
  if (s.controlPlaneMode) profile.controlPlaneMode = oneOf(flagName('controlPlaneMode'), s.controlPlaneMode, CONTROL_PLANE_MODES);
  if (s.agentServerHosting) profile.agentServerHosting = oneOf(flagName('agentServerHosting'), s.agentServerHosting, AGENT_SERVER_HOSTINGS);
  if (!sourcesNamed) profile.sources = defaultSources(profile.controlPlaneMode);
  if (s.runs) profile.runs = integer(flagName('runs'), s.runs, 1, 100_000);
  if (s.seed) profile.seed = integer(flagName('seed'), s.seed, -0x80000000, 0x7fffffff);
  if (s.seeds) profile.seeds = integer(flagName('seeds'), s.seeds, 1, 1000);
  if (s.concurrency) profile.concurrency = integer(flagName('concurrency'), s.concurrency, 1, 256);
  if (s.pollIntervalMs) profile.pollIntervalMs = integer(flagName('pollIntervalMs'), s.pollIntervalMs, 1);
  if (s.requestTimeoutMs) profile.timeouts.requestMs = integer(flagName('requestTimeoutMs'), s.requestTimeoutMs, 1);
  if (s.streamTimeoutMs) profile.timeouts.streamMs = integer(flagName('streamTimeoutMs'), s.streamTimeoutMs, 1);
  if (s.deployTimeoutMs) profile.timeouts.deployMs = integer(flagName('deployTimeoutMs'), s.deployTimeoutMs, 1);
  if (s.budget) profile.budget = budgetOf(flagName('budget'), s.budget);
  if (flags.keep) profile.keep = true;
  return profile;
}

/** `deployments=12,revisions=40` (either may be left out), or `none`: no cap, not even a target given by URL's default. */
function budgetOf(name: string, text: string): Budget {
  const budget: Budget = {};
  if (text.trim().toLowerCase() === 'none') return budget;
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [key, value] = part.split('=');
    if ((key !== 'deployments' && key !== 'revisions') || value === undefined) {
      throw new ProfileError(`${name}: expected deployments=N,revisions=M (either may be left out) or none, found ${JSON.stringify(text)}.`);
    }
    budget[key] = integer(name, value, 0);
  }
  return budget;
}

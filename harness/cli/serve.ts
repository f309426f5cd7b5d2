// `apc serve`: runs the reference implementation until interrupted.
import { developmentGrant } from '../../reference-impl/auth.ts';
import type { ApiKeyGrant, ReferenceOptions, ReferenceServer } from '../../reference-impl/options.ts';
import { redactor } from '../redact.ts';
import { command, type CommandIo, type ValuesOf } from './command.ts';
import { unknownFaultMessage } from '../reference/fault-names.ts';
import { expandBareFlag, platformLikeOption } from './platform-like-option.ts';
import { UsageError } from '../usage-error.ts';
import { SERVE_USAGE } from './usage.ts';
import { apcCommand } from '../apc-command.ts';

export const OPTIONS = {
  mode: { type: 'string' },
  host: { type: 'string' },
  'control-plane-port': { type: 'string' },
  'agent-server-port': { type: 'string' },
  'tracing-port': { type: 'string' },
  'database-url': { type: 'string' },
  'api-key': { type: 'string', multiple: true },
  'phase-ms': { type: 'string' },
  'stats-delay-ms': { type: 'string' },
  graphs: { type: 'string' },
  fault: { type: 'string', multiple: true },
  'platform-like': { type: 'string' },
  'time-scale': { type: 'string' },
  log: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function port(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new UsageError(`${name}: expected a port number 0-65535, found ${JSON.stringify(text)}.`);
  return value;
}

function milliseconds(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new UsageError(`${name}: expected a whole number of milliseconds, found ${JSON.stringify(text)}.`);
  return value;
}

/** `source` names where the text came from (the flag, or APC_REF_API_KEYS), so the message points there. */
function grant(text: string, source: string): ApiKeyGrant {
  const [key, tenants] = text.split(':');
  if (!key || !tenants) {
    throw new UsageError(`${source}: expected KEY:TENANT[,TENANT...], for example mykey:7b2c..., found ${JSON.stringify(redactor.text(text.replace(/^[^:]*/, '<key>')))} (leave it out and apc serve generates two keys and tenants).`);
  }
  return { key, tenants: tenants.split(',').filter(Boolean) };
}

/** The one line a person needs when the reference cannot start for a reason of the machine's setup. */
function startProblem(error: unknown, options: ReferenceOptions): string | undefined {
  const e = error as { code?: string; port?: number; address?: string; message?: string };
  if (e.code === 'EADDRINUSE' || e.code === 'EACCES') {
    const names: [number | undefined, string][] = [
      [options.ports?.controlPlane, '--control-plane-port'],
      [options.ports?.agentServer, '--agent-server-port'],
      [options.ports?.experimentUpload, '--tracing-port'],
    ];
    const flag = names.find(([p]) => p === e.port)?.[1] ?? 'the port flags';
    const why = e.code === 'EADDRINUSE' ? 'is already in use by another process' : 'may not be opened by this user';
    return `port ${e.port ?? '?'} on ${e.address ?? options.host} ${why}; stop that process or choose another port with ${flag} (0 picks a free one).`;
  }
  // Network errors (ECONNREFUSED, ENOTFOUND, ...) and PostgreSQL's SQLSTATE codes (28P01: wrong password, ...).
  const fromDatabase = typeof e.code === 'string' && (/^E[A-Z]+$/.test(e.code) || /^[0-9A-Z]{5}$/.test(e.code));
  if (options.databaseUrl && fromDatabase) {
    const where = redactor.text(options.databaseUrl.replace(/\/\/[^@/]*@/, '//[credentials]@'));
    return `cannot use the database at ${where}: ${e.code ? `${e.code} ` : ''}${e.message ?? String(error)}. Check --database-url (or DATABASE_URL) and that PostgreSQL is running and reachable.`;
  }
  return undefined;
}

/**
 * The `apc certify` line for the served reference: the keys in the environment (generated ones
 * shown, configured ones as placeholders), a second tenant when there is a second key, no budget.
 */
function certifyCommand(server: ReferenceServer, own: ApiKeyGrant | undefined, other: ApiKeyGrant | undefined, generated: boolean): string {
  const key = (grant: ApiKeyGrant, placeholder: string) => (generated ? grant.key : placeholder);
  const env = [own ? `APC_API_KEY=${key(own, '<its key>')}` : '', other ? `APC_OTHER_API_KEY=${key(other, '<the second key>')}` : ''].filter(Boolean);
  const flags = [
    `--control-plane-url ${server.urls.controlPlane}`,
    `--agent-server-url ${server.urls.agentServer}`,
    `--tracing-url ${server.urls.experimentUpload}`,
    `--tenant-id ${server.tenantId}`,
    other?.tenants[0] ? `--other-tenant-id ${other.tenants[0]}` : '',
    server.mode === 'self-hosted' ? '--control-plane-mode self-hosted' : '',
    // The reference is free: no budget, as a target given by URL otherwise gets.
    '--budget none',
  ].filter(Boolean);
  return [...env, `${apcCommand()} certify`, ...flags].join(' ');
}

export async function serve(argv: string[], io: CommandIo, untilStopped: Promise<unknown>): Promise<number> {
  const args = (argv: string[]) => expandBareFlag(argv, '--platform-like');
  return command({ name: 'serve', options: OPTIONS, usage: SERVE_USAGE, args }, argv, io, async (v) => {
    const { options, generated } = referenceOptions(v, io.env);
    return serveUntilStopped(options, generated, io, untilStopped);
  });
}

/** The reference's options from the flags and APC_REF_* variables; `generated`: the development keys made because none was given. */
function referenceOptions(v: ValuesOf<typeof OPTIONS>, env: NodeJS.ProcessEnv): { options: ReferenceOptions; generated: ApiKeyGrant[] | undefined } {
  const faultProblem = unknownFaultMessage('--fault', v.fault ?? []);
  if (faultProblem) throw new UsageError(faultProblem);
  const mode = v.mode ?? env.APC_REF_MODE ?? 'hosted';
  if (mode !== 'hosted' && mode !== 'self-hosted') throw new UsageError(`--mode: expected hosted or self-hosted, found ${JSON.stringify(mode)}.`);
  const keys = v['api-key'] ?? (env.APC_REF_API_KEYS ? env.APC_REF_API_KEYS.split(/\s+/).filter(Boolean) : []);
  // None given: two development keys, each with its tenant, so the tenant-scoping rules can be judged too.
  const generated = keys.length === 0 ? [developmentGrant(), developmentGrant()] : undefined;
  const databaseUrl = v['database-url'] ?? env.DATABASE_URL;
  const phase = v['phase-ms'] ?? env.APC_REF_PHASE_MS;
  const statsDelay = v['stats-delay-ms'] ?? env.APC_REF_STATS_DELAY_MS;
  const platformLike = platformLikeOption('--platform-like', v['platform-like'] ?? env.APC_REF_PLATFORM_LIKE, '--time-scale', v['time-scale'] ?? env.APC_REF_TIME_SCALE);
  const options: ReferenceOptions = {
    mode,
    host: v.host ?? env.APC_REF_HOST ?? '127.0.0.1',
    ports: {
      controlPlane: port('--control-plane-port', v['control-plane-port'] ?? env.APC_REF_CONTROL_PLANE_PORT, 8100),
      agentServer: port('--agent-server-port', v['agent-server-port'] ?? env.APC_REF_AGENT_SERVER_PORT, 8123),
      experimentUpload: port('--tracing-port', v['tracing-port'] ?? env.APC_REF_TRACING_PORT, 8200),
    },
    apiKeys: generated ?? keys.map((k) => grant(k, v['api-key'] ? '--api-key' : 'APC_REF_API_KEYS')),
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(phase ? { phaseMs: milliseconds('--phase-ms', phase) } : {}),
    ...(statsDelay ? { statsDelayMs: milliseconds('--stats-delay-ms', statsDelay) } : {}),
    ...(v.graphs ? { graphConfigPath: v.graphs } : {}),
    faults: v.fault ?? [],
    ...(platformLike ? { platformLike } : {}),
    log: v.log ?? false,
  };
  return { options, generated };
}

async function serveUntilStopped(options: ReferenceOptions, generated: ApiKeyGrant[] | undefined, io: CommandIo, untilStopped: Promise<unknown>): Promise<number> {
  const { startReference } = await import('../../reference-impl/index.ts');
  let server;
  try {
    server = await startReference(options);
  } catch (error) {
    const problem = startProblem(error, options);
    if (!problem) throw error;
    io.err.write(`apc serve: ${problem}\n`);
    return 2;
  }
  const [own, other] = options.apiKeys ?? [];
  io.out.write(
    [
      `reference implementation (${server.mode} mode, ${options.databaseUrl ? 'PostgreSQL' : 'in-memory'} storage)`,
      `  control plane      ${server.urls.controlPlane}`,
      `  agent server       ${server.urls.agentServer}`,
      `  experiment upload  ${server.urls.experimentUpload}`,
      generated ? `  development key    ${server.apiKey}  (tenant ${server.tenantId}; generated because no --api-key was given)` : `  tenant             ${server.tenantId}`,
      generated && other ? `  second key         ${other.key}  (tenant ${other.tenants[0]}; a second workspace, for the tenant-scoping rules)` : '',
      options.faults && options.faults.length > 0 ? `  FAULTS ENABLED     ${options.faults.join(', ')}` : '',
      options.platformLike ? `  platform-like      ${options.platformLike.behaviours.join(', ')} (time scale ${options.platformLike.timeScale})` : '',
      'Certify it, from another terminal:',
      `  ${certifyCommand(server, own, other, Boolean(generated))}`,
      'Press Ctrl-C to stop.',
      '',
    ]
      .filter((l) => l !== '')
      .join('\n') + '\n',
  );
  await untilStopped;
  await server.close();
  return 0;
}

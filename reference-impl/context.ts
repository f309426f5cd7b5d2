// What every listener of the reference implementation shares: resolved options, auth, the
// database pool (when PostgreSQL is used), the fault switches and things to stop on close.
import type { FastifyServerOptions } from 'fastify';
import { resolveAuth, type AuthConfig } from './auth.ts';
import { openPool, type Pool, type PoolClient } from './db.ts';
import type { ControlPlaneMode, ReferenceOptions } from './options.ts';
import { PLATFORM_DEFAULTS, resolvePlatformLike, type PlatformLike } from './platform-like/behaviours.ts';

export interface ReferenceContext {
  mode: ControlPlaneMode;
  phaseMs: number;
  statsDelayMs: number;
  graphConfigPath: string | undefined;
  auth: AuthConfig;
  pool: Pool | undefined;
  faults: ReadonlySet<string>;
  /** The platform-like behaviours switched on (none by default). */
  platformLike: PlatformLike;
  /** Fastify logger option: structured JSON with secrets redacted, or off. */
  logger: FastifyServerOptions['logger'];
  /** Called on close, in reverse order: background workers register here. */
  onClose(stop: () => Promise<void> | void): void;
  /**
   * Tracing projects, set by the experiment-upload listener (built first). The control plane creates one
   * per deployment (spec 1.A) and deletes it on request.
   */
  tracingProjects?: TracingProjects;
}

export interface TracingProjects {
  /**
   * Throws the 409 `conflict(...)` HttpError when the tenant has a project of that name. With
   * `tx`, the project is written in that PostgreSQL transaction and commits or rolls back with it.
   */
  createProject(tenantId: string, name: string, tx?: PoolClient): Promise<void>;
  deleteProject(tenantId: string, name: string): Promise<void>;
}

/** Header and body paths never written to logs. */
export const REDACTED_LOG_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.body.secrets',
];

export function createContext(options: ReferenceOptions): { ctx: ReferenceContext; close(): Promise<void> } {
  const stops: (() => Promise<void> | void)[] = [];
  const platformLike = resolvePlatformLike(options.platformLike);
  const pool = options.databaseUrl ? openPool(options.databaseUrl) : undefined;
  const ctx: ReferenceContext = {
    mode: options.mode ?? 'hosted',
    phaseMs: platformLike.has('slow-builds') ? platformLike.scaled(PLATFORM_DEFAULTS.phaseMs) : (options.phaseMs ?? 20),
    statsDelayMs: options.statsDelayMs ?? 2000,
    graphConfigPath: options.graphConfigPath,
    auth: resolveAuth(options.apiKeys),
    pool,
    faults: new Set(options.faults ?? []),
    platformLike,
    // stderr, so stdout stays for what `apc serve` prints (the URLs and the key).
    logger: options.log ? { level: 'info', redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' }, stream: process.stderr } : false,
    onClose: (stop) => stops.push(stop),
  };
  return {
    ctx,
    async close() {
      for (const stop of stops.reverse()) await stop();
      await pool?.end();
    },
  };
}

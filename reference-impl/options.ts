// Options of the reference implementation: what `apc serve` flags and `startReference()` accept.
import type { PlatformLikeOptions } from './platform-like/behaviours.ts';

export type ControlPlaneMode = 'hosted' | 'self-hosted';

/** An API key and the tenants (workspaces) it may act for. */
export interface ApiKeyGrant {
  key: string;
  tenants: string[];
}

export interface ReferenceOptions {
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Port per listener; 0 (the default) picks a free port. */
  ports?: { controlPlane?: number; agentServer?: number; experimentUpload?: number };
  /** hosted: `gitforge` allowed, `external_container` refused. self-hosted: the reverse, served under `/api-host`. */
  mode?: ControlPlaneMode;
  /** PostgreSQL connection string. In-memory storage when absent. */
  databaseUrl?: string;
  /** Keys and their tenants. When empty, one development key and tenant are generated and reported. */
  apiKeys?: ApiKeyGrant[];
  /** Duration of each revision phase in milliseconds (default 20; the real platform takes minutes). */
  phaseMs?: number;
  /** Delay before experiment statistics are filled, in milliseconds (default 2000). */
  statsDelayMs?: number;
  /** Deliberate deviations from the spec, for the harness's negative self-tests. */
  faults?: string[];
  /** Path of a graph configuration file (`graph.json`) registering extra graphs. */
  graphConfigPath?: string;
  /** Behave as the real hosted platform does where the spec allows it (platform-like/README.md). */
  platformLike?: PlatformLikeOptions;
  /** Structured JSON logs to stderr. Default false. */
  log?: boolean;
}

export interface ReferenceServer {
  urls: { controlPlane: string; agentServer: string; experimentUpload: string };
  /** The key clients should send: the first configured key, or the generated development key. */
  apiKey: string;
  /** The first tenant the key may use. */
  tenantId: string;
  mode: ControlPlaneMode;
  close(): Promise<void>;
}

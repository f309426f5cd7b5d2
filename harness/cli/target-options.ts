// The command-line options that name a target and its profile, shared by `apc certify` and
// `apc contracts verify`, and how they become ProfileSettings for buildProfile.
import type { ProfileSettings } from '../profile/sources.ts';

/** Where the target is and how to reach it: what `apc init` needs to probe it. */
export const ADDRESS_OPTIONS = {
  'control-plane-url': { type: 'string' },
  'agent-server-url': { type: 'string' },
  'tracing-url': { type: 'string' },
  'api-key': { type: 'string' },
  'tenant-id': { type: 'string' },
  'other-api-key': { type: 'string' },
  'other-tenant-id': { type: 'string' },
  'control-plane-mode': { type: 'string' },
} as const;

export const TARGET_OPTIONS = {
  ...ADDRESS_OPTIONS,
  'agent-server-hosting': { type: 'string' },
  profile: { type: 'string' },
  runs: { type: 'string' },
  seed: { type: 'string' },
  seeds: { type: 'string' },
  concurrency: { type: 'string' },
  'poll-interval-ms': { type: 'string' },
  'request-timeout-ms': { type: 'string' },
  'stream-timeout-ms': { type: 'string' },
  'deploy-timeout-ms': { type: 'string' },
  keep: { type: 'boolean' },
} as const;

type TargetValues = { [K in keyof typeof TARGET_OPTIONS]?: (typeof TARGET_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

export function targetSettings(v: TargetValues): ProfileSettings {
  return {
    profileFile: v.profile,
    controlPlaneUrl: v['control-plane-url'],
    agentServerUrl: v['agent-server-url'],
    agentServerHosting: v['agent-server-hosting'],
    tracingUrl: v['tracing-url'],
    apiKey: v['api-key'],
    tenantId: v['tenant-id'],
    otherApiKey: v['other-api-key'],
    otherTenantId: v['other-tenant-id'],
    controlPlaneMode: v['control-plane-mode'],
    runs: v.runs,
    seed: v.seed,
    seeds: v.seeds,
    keep: v.keep,
    concurrency: v.concurrency,
    pollIntervalMs: v['poll-interval-ms'],
    requestTimeoutMs: v['request-timeout-ms'],
    streamTimeoutMs: v['stream-timeout-ms'],
    deployTimeoutMs: v['deploy-timeout-ms'],
  };
}

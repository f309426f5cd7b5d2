// `apc certify`: reads the command line into a certification request and runs it
// (harness/run/certify-run.ts, the entry apc selftest calls too); its exit code is the verdict's.
import { certifyRun, type CertifyOutcome, type CertifyRequest } from '../run/certify-run.ts';
import type { RunRequest } from '../run/plan.ts';
import type { StopRequest } from '../run/run-stop.ts';
import { expandBareFlag, platformLikeOption } from './platform-like-option.ts';
import { targetSettings, TARGET_OPTIONS } from './target-options.ts';
import { CERTIFY_USAGE } from './usage.ts';
import { command, type CommandIo, type ValuesOf } from './command.ts';

export const OPTIONS = {
  ...TARGET_OPTIONS,
  interfaces: { type: 'string' },
  requirements: { type: 'string', multiple: true },
  shard: { type: 'string' },
  replay: { type: 'string' },
  'max-time': { type: 'string' },
  'max-rps': { type: 'string' },
  reports: { type: 'string' },
  'expected-failures': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  // Negative self-tests certify the reference with a deliberate deviation switched on.
  'reference-fault': { type: 'string', multiple: true },
  reference: { type: 'string' },
  database: { type: 'string' },
  'reference-platform-like': { type: 'string' },
  'reference-time-scale': { type: 'string' },
  plan: { type: 'boolean' },
  budget: { type: 'string' },
  resume: { type: 'string' },
  'revision-time': { type: 'string' },
} as const;

type CertifyValues = ValuesOf<typeof OPTIONS>;

function requestOf(v: CertifyValues): RunRequest {
  const platformLike = platformLikeOption('--reference-platform-like', v['reference-platform-like'], '--reference-time-scale', v['reference-time-scale']);
  return {
    settings: { ...targetSettings(v), ...(v.budget !== undefined ? { budget: v.budget } : {}) },
    interfaces: v.interfaces,
    requirements: v.requirements,
    shard: v.shard,
    replay: v.replay,
    maxTime: v['max-time'],
    maxRps: v['max-rps'],
    reports: v.reports,
    expectedFailures: v['expected-failures'],
    referenceFaults: v['reference-fault'],
    reference: v.reference,
    database: v.database,
    ...(platformLike ? { referencePlatformLike: platformLike } : {}),
    ...(v.plan ? { sendNothing: true } : {}),
    ...(v.resume !== undefined ? { resume: v.resume } : {}),
  };
}

export async function certify(argv: string[], io: CommandIo, stop?: StopRequest): Promise<number> {
  return withCertifyRequest(argv, io, stop, async (request) => (await certifyRun(request)).code);
}

/**
 * Reads `apc certify`'s command line into a certification request and hands it to `run`; a
 * mistake in it is printed as a usage problem (exit 2), as for every command. Tests that certify
 * inside their process read their flags through it.
 */
export function withCertifyRequest(argv: string[], io: CommandIo, stop: StopRequest | undefined, run: (request: CertifyRequest) => Promise<number>): Promise<number> {
  const args = (argv: string[]) => expandBareFlag(argv, '--reference-platform-like');
  return command({ name: 'certify', options: OPTIONS, usage: CERTIFY_USAGE, args }, argv, io, (v) =>
    run({
      run: requestOf(v),
      env: io.env,
      out: io.out,
      err: io.err,
      quiet: v.quiet ?? false,
      ...(v['revision-time'] !== undefined ? { revisionTime: v['revision-time'] } : {}),
      ...(stop ? { stop } : {}),
    }),
  );
}

export type { CertifyOutcome };

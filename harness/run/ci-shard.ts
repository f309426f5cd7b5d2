// `--shard auto`: the shard index and count from the CI system's own variables, so a parallel job
// needs no `--shard I/N` written out per CI system. Each system numbers its jobs in its own way;
// every one becomes the 1-based I/N of `--shard`.
import { UsageError } from '../usage-error.ts';

interface CiSystem {
  name: string;
  index: string;
  count: string;
  /** The first job's index: 0 or 1. */
  base: 0 | 1;
}

/**
 * Looked up in this order; the first system whose index variable is set is the one read.
 * GitHub Actions has no built-in variables for a job's place in its matrix: the workflow sets
 * APC_SHARD_INDEX and APC_SHARD_TOTAL from `strategy.job-index` and `strategy.job-total`
 * (docs/ci.md). A Kubernetes Indexed Job gives each pod JOB_COMPLETION_INDEX; the count is the
 * Job's `spec.completions`, which Kubernetes does not expose: the Job's template sets
 * APC_SHARD_TOTAL to it.
 */
export const CI_SYSTEMS: readonly CiSystem[] = [
  { name: 'GitHub Actions (or any CI)', index: 'APC_SHARD_INDEX', count: 'APC_SHARD_TOTAL', base: 0 },
  { name: 'GitLab CI', index: 'CI_NODE_INDEX', count: 'CI_NODE_TOTAL', base: 1 },
  { name: 'Buildkite', index: 'BUILDKITE_PARALLEL_JOB', count: 'BUILDKITE_PARALLEL_JOB_COUNT', base: 0 },
  { name: 'a Kubernetes Indexed Job', index: 'JOB_COMPLETION_INDEX', count: 'APC_SHARD_TOTAL', base: 0 },
];

export interface CiShard {
  /** As `--shard` takes it: `I/N`, 1-based. */
  shard: string;
  /** What was read, for the run's output. */
  said: string;
}

function whole(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/** The shard of this CI job; a UsageError (exit 2) saying what to set when no system's variables are. */
export function ciShard(env: NodeJS.ProcessEnv): CiShard {
  const system = CI_SYSTEMS.find((s) => env[s.index] !== undefined && env[s.index] !== '');
  if (!system) {
    const each = CI_SYSTEMS.map((s) => `${s.index}/${s.count} (${s.name}, ${s.base}-based)`).join('; ');
    throw new UsageError(`--shard auto: no CI shard variables are set. Set one pair: ${each}. Or give --shard I/N.`);
  }
  const index = whole(env[system.index]);
  const count = whole(env[system.count]);
  const seen = `${system.index}=${JSON.stringify(env[system.index])}, ${system.count}=${JSON.stringify(env[system.count] ?? null)}`;
  if (index === undefined || count === undefined || count < 1 || index - system.base < 0 || index - system.base >= count) {
    throw new UsageError(
      `--shard auto: ${system.name}'s variables do not name a shard: ${seen}; expected a whole ${system.index} from ${system.base} to ${system.base === 0 ? `${system.count} - 1` : system.count}.`,
    );
  }
  const shard = `${index - system.base + 1}/${count}`;
  return { shard, said: `shard ${shard} from ${system.name}: ${seen}` };
}

// `--shard auto`: each CI system's own variables become the 1-based I/N of `--shard`, and no
// variables at all, or ones that name no shard, are a usage error saying what to set.
import { describe, expect, test } from 'vitest';
import { ciShard } from '../../harness/run/ci-shard.ts';
import { UsageError } from '../../harness/usage-error.ts';

describe('--shard auto reads the CI system it runs on', () => {
  test.each([
    ['GitHub Actions, set from strategy.job-index/job-total (0-based)', { APC_SHARD_INDEX: '0', APC_SHARD_TOTAL: '4' }, '1/4', 'GitHub Actions'],
    ['GitHub Actions, the last job', { APC_SHARD_INDEX: '3', APC_SHARD_TOTAL: '4' }, '4/4', 'GitHub Actions'],
    ['GitLab parallel (1-based)', { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '3' }, '1/3', 'GitLab CI'],
    ['GitLab parallel, the last job', { CI_NODE_INDEX: '3', CI_NODE_TOTAL: '3' }, '3/3', 'GitLab CI'],
    ['Buildkite parallelism (0-based)', { BUILDKITE_PARALLEL_JOB: '0', BUILDKITE_PARALLEL_JOB_COUNT: '2' }, '1/2', 'Buildkite'],
    ['Buildkite, the last job', { BUILDKITE_PARALLEL_JOB: '1', BUILDKITE_PARALLEL_JOB_COUNT: '2' }, '2/2', 'Buildkite'],
    ['a Kubernetes Indexed Job (0-based), its completions in APC_SHARD_TOTAL', { JOB_COMPLETION_INDEX: '4', APC_SHARD_TOTAL: '5' }, '5/5', 'Kubernetes'],
  ])('%s', (_name, env, shard, system) => {
    const found = ciShard(env);
    expect(found.shard).toBe(shard);
    expect(found.said).toContain(system);
    for (const [name, value] of Object.entries(env)) expect(found.said).toContain(`${name}="${value}"`);
  });

  test('no CI variables: a usage error naming every pair to set', () => {
    expect(() => ciShard({ CI: 'true', GITHUB_ACTIONS: 'true' })).toThrow(UsageError);
    expect(() => ciShard({})).toThrow(
      /APC_SHARD_INDEX\/APC_SHARD_TOTAL .*CI_NODE_INDEX\/CI_NODE_TOTAL .*BUILDKITE_PARALLEL_JOB\/BUILDKITE_PARALLEL_JOB_COUNT .*JOB_COMPLETION_INDEX\/APC_SHARD_TOTAL/,
    );
  });

  test.each([
    ['an index past the count (0-based)', { BUILDKITE_PARALLEL_JOB: '2', BUILDKITE_PARALLEL_JOB_COUNT: '2' }, /from 0 to BUILDKITE_PARALLEL_JOB_COUNT - 1/],
    ['index 0 where numbering starts at 1', { CI_NODE_INDEX: '0', CI_NODE_TOTAL: '2' }, /from 1 to CI_NODE_TOTAL/],
    ['a Kubernetes index without the completions count', { JOB_COMPLETION_INDEX: '0' }, /APC_SHARD_TOTAL=null/],
    ['a count that is no number', { APC_SHARD_INDEX: '0', APC_SHARD_TOTAL: 'four' }, /APC_SHARD_TOTAL="four"/],
  ])('%s is a usage error', (_name, env, message) => {
    expect(() => ciShard(env)).toThrow(UsageError);
    expect(() => ciShard(env)).toThrow(message);
  });
});

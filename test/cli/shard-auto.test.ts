// `apc certify --shard auto` as a CI job runs it: it says which variables it read and runs that
// slice, and stops with exit 2 and what to set when the job has none.
import { describe, expect, test } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.ts';
import { apcHere } from '../support/apc-here.ts';

describe('apc certify --shard auto', () => {
  test('reads GitLab parallel variables and says so', async () => {
    const run = await apcHere(['certify', '--shard', 'auto', '--plan', '--interfaces', 'agent-server'], { CI_NODE_INDEX: '2', CI_NODE_TOTAL: '3' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('shard 2/3 from GitLab CI: CI_NODE_INDEX="2", CI_NODE_TOTAL="3"');
    // The second of three slices: every third requirement by id, from the second.
    const all = loadCatalogue().requirements.filter((r) => r.interface === 'agent-server').length;
    expect(run.stdout).toContain(`· ${Math.floor((all - 2) / 3) + 1} requirement(s) selected`);
  });

  test('with no CI variables: exit 2, naming what to set', async () => {
    const run = await apcHere(['certify', '--shard', 'auto'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--shard auto: no CI shard variables are set. Set one pair: APC_SHARD_INDEX/APC_SHARD_TOTAL');
  });
});

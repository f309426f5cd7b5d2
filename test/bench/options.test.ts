// `npm run bench -- --help` lists every option, a mistyped option is one line naming the closest
// (exit 2, no stack trace), and the peer ratio is the median of alternating rounds with its spread.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BENCH_OPTIONS, BENCH_USAGE, benchArgs } from '../../bench/options.ts';
import { peerRatios } from '../../bench/peer-ratios.ts';
import { ROOT } from '../../harness/root.ts';

const bench = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'bench.ts'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

describe('npm run bench options', () => {
  test('the help names every option', () => {
    for (const name of Object.keys(BENCH_OPTIONS)) expect(BENCH_USAGE).toContain(`--${name}`);
    expect(BENCH_USAGE).toContain('default bench/results/<date>.json');
  });

  test('--help prints the help and runs nothing; a mistyped option is exit 2 naming the closest', () => {
    const help = bench('--help');
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toBe(BENCH_USAGE);
    const typo = bench('--peer-agent-sever', 'http://127.0.0.1:1');
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('did you mean --peer-agent-server?');
    expect(typo.stderr).not.toMatch(/\n\s+at /);
  });

  test('--waits-rounds below one, or not a whole number, is exit 2 saying what it wants', () => {
    const zero = bench('--only', 'waits', '--waits-rounds', '0');
    expect(zero.status).toBe(2);
    expect(zero.stderr).toContain('--waits-rounds wants a whole number of at least 1, found "0"');
  });

  test('values and defaults are read', () => {
    const read = benchArgs(['--only', 'streams', '--out', 'x.json']);
    expect('values' in read && read.values).toMatchObject({ only: 'streams', out: 'x.json', seconds: '3', 'peer-rounds': '3' });
  });
});

describe('the peer ratio', () => {
  const rate = (perSecond: number) => ({ okPerSecond: 0, createAssistantPerSecond: perSecond, p50Ms: 0, p99Ms: 0 });

  test('is the median of the rounds, with the lowest and highest', () => {
    const figures = peerRatios([
      { reference: rate(4200), peer: rate(1000) },
      { reference: rate(3000), peer: rate(1000) },
      { reference: rate(3300), peer: rate(1000) },
    ]);
    expect(figures.createAssistantRatio).toBe(3.3);
    expect(figures.createAssistantRatioSpread).toEqual([3, 4.2]);
    expect(figures.rounds).toHaveLength(3);
    expect(figures.reference.createAssistantPerSecond).toBe(3300);
  });
});

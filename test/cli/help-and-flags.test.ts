// Help that tells the truth: every option a command accepts is in its help, and a mistyped option
// gets the closest one (issue: a newcomer's first hour).
import { describe, expect, test } from 'vitest';
import { OPTIONS as CERTIFY } from '../../harness/cli/certify.ts';
import { OPTIONS as CLEANUP } from '../../harness/cli/cleanup.ts';
import { OPTIONS as CONTRACTS } from '../../harness/cli/contracts.ts';
import { OPTIONS as INIT } from '../../harness/cli/init.ts';
import { main } from '../../harness/cli/main.ts';
import { optionProblem } from '../../harness/cli/option-problem.ts';
import { OPTIONS as SELFTEST } from '../../harness/cli/selftest.ts';
import { OPTIONS as SERVE } from '../../harness/cli/serve.ts';
import { CERTIFY_USAGE, CLEANUP_USAGE, CONTRACTS_USAGE, INIT_USAGE, SELFTEST_USAGE, SERVE_USAGE } from '../../harness/cli/usage.ts';

async function apc(args: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const code = await main(args, { out: { write: () => undefined }, err: { write: (t) => void (err += t) }, env: { NO_COLOR: '1' } });
  return { code, err };
}

describe('every option a command accepts is in its help', () => {
  const commands: [string, Record<string, unknown>, string][] = [
    ['certify', CERTIFY, CERTIFY_USAGE],
    ['init', INIT, INIT_USAGE],
    ['serve', SERVE, SERVE_USAGE],
    ['contracts', CONTRACTS, CONTRACTS_USAGE],
    ['cleanup', CLEANUP, CLEANUP_USAGE],
    ['selftest', SELFTEST, SELFTEST_USAGE],
  ];
  test.each(commands)('apc help %s', (_name, options, usage) => {
    const missing = Object.keys(options).filter((o) => o !== 'help' && !new RegExp(`--${o}(?![\\w-])`).test(usage));
    expect(missing).toEqual([]);
  });

  test('apc help init: a URL is required only as one of the three, and every other option is under Optional', () => {
    const [required, optional] = INIT_USAGE.split('\nOptional:\n') as [string, string];
    expect(required).toContain('Required: at least one URL');
    const urls = ['control-plane-url', 'agent-server-url', 'tracing-url'];
    for (const url of urls) expect(required).toContain(`--${url} URL`);
    const others = Object.keys(INIT).filter((o) => o !== 'help' && !urls.includes(o));
    expect(others.filter((o) => !new RegExp(`--${o}(?![\\w-])`).test(optional))).toEqual([]);
  });
});

describe('a mistyped option gets the closest one', () => {
  test.each([
    [['certify', '--requirments', 'CP-DEL-*'], '--requirements'],
    [['init', '--agent-server-ur', 'http://x'], '--agent-server-url'],
    [['serve', '--modee', 'hosted'], '--mode'],
    [['contracts', 'verify', '--agent-server-hostng', 'self-run'], '--agent-server-hosting'],
    [['cleanup', '--yess'], '--yes'],
    [['selftest', '--seds', '3'], '--seeds'],
  ])('apc %j', async (args, near) => {
    const run = await apc(args);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`Unknown option '${args.find((a) => a.startsWith('--'))}'; did you mean ${near}?`);
  });

  test('nothing near: no guess', () => {
    expect(optionProblem(new Error("Unknown option '--zzzzzzzzzz'"), { requirements: {} })).toBe("Unknown option '--zzzzzzzzzz'.");
  });
});

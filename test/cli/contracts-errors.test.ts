// `apc contracts` refuses what it cannot judge with exit code 2 and a message saying what to fix:
// bad flags, no pact files, no pact for the URLs given, an unreachable URL, a self-hosted
// control plane URL without /api-host.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../harness/cli/main.ts';

async function apc(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['contracts', ...args], { out: { write: (t) => void (out += t) }, err: { write: (t) => void (err += t) }, env: {} });
  return { code, out, err };
}

describe('apc contracts errors', () => {
  let dir: string;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apc-contracts-'));
    const pact = { consumer: { name: 'deploy-pipeline' }, provider: { name: 'control-plane-self-hosted' }, interactions: [{ description: 'x', request: {}, response: {} }] };
    writeFileSync(join(dir, 'p.json'), JSON.stringify(pact));
    server = createServer((_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  test('help and usage', async () => {
    expect((await apc(['--help'])).out).toContain('apc contracts verify');
    const unknown = await apc(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown subcommand "frobnicate"');
    const flag = await apc(['verify', '--no-such-flag']);
    expect(flag.code).toBe(2);
    expect(flag.err).toContain('apc help contracts');
  });

  test('no pact files', async () => {
    const run = await apc(['verify', '--tracing-url', url, '--pacts', join(dir, 'missing')]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('npm run contracts:consumers');
  });

  test('no pact for the providers given', async () => {
    const run = await apc(['verify', '--tracing-url', url, '--pacts', dir]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('No pact names a provider you gave a URL for');
  });

  test('a self-hosted control plane URL must end with /api-host', async () => {
    const run = await apc(['verify', '--control-plane-url', url, '--control-plane-mode', 'self-hosted', '--api-key', 'k', '--pacts', dir]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('includes its /api-host prefix');
  });

  test('an unreachable URL', async () => {
    const run = await apc(['verify', '--control-plane-url', 'http://127.0.0.1:9/api-host', '--control-plane-mode', 'self-hosted', '--pacts', dir]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('nothing listens there');
  });
});

// `apc contracts` refuses what it cannot judge with exit code 2 and a message saying what to fix:
// bad flags, no pact files, no pact for the URLs given, an unreachable URL, a self-hosted
// control plane URL without /api-host.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    // `npm test` writes its pacts to a temporary folder: naming it as the way to get pacts misleads.
    expect(run.err).not.toMatch(/run `npm test`|\(or `npm test`\)/);
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

// Discovery before deciding a key is missing, as `apc certify` does (issue: a newcomer's first hour).
describe('apc contracts verify against an agent server, no key and no profile', () => {
  let dir: string;
  let keyless: Server;
  let demanding: Server;
  /** What the keyless server was sent: the harness's probe, then the verifier's request. */
  const keylessHeard: { contentType: string | undefined; body: string }[] = [];
  const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apc-contracts-keyless-'));
    const pact = {
      consumer: { name: 'agent-client' },
      provider: { name: 'agent-server' },
      interactions: [{ description: 'search assistants', request: { method: 'POST', path: '/assistants/search', body: { limit: 1 } }, response: { status: 200 } }],
      metadata: { pactSpecification: { version: '3.0.0' } },
    };
    writeFileSync(join(dir, 'agent-client-agent-server.json'), JSON.stringify(pact));
    keyless = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        keylessHeard.push({ contentType: req.headers['content-type'], body });
        res.setHeader('content-type', 'application/json').end('[]');
      });
    });
    demanding = createServer((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":"missing key"}'));
    await Promise.all([keyless, demanding].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
  });
  afterAll(async () => {
    // Keep-alive connections (the verifier's) would hold close() open.
    for (const s of [keyless, demanding]) s.closeAllConnections();
    await Promise.all([keyless, demanding].map((s) => new Promise((resolve) => s.close(resolve))));
    rmSync(dir, { recursive: true, force: true });
  });

  test('a keyless agent server is found to be self-run and the verification goes on', async () => {
    // Run where a user runs apc: without --junit, the JUnit file goes to ./reports/contracts/ there,
    // not into the checkout (or the installed package).
    const cwd = mkdtempSync(join(tmpdir(), 'apc-contracts-cwd-'));
    const before = process.cwd();
    process.chdir(cwd);
    try {
      const run = await apc(['verify', '--agent-server-url', urlOf(keyless), '--pacts', dir]);
      expect(run.out).toContain('Assumed agentServerHosting self-run: POST /assistants/search without a key answered 200');
      expect(run.out).toContain('Verifying agent-client → agent-server');
      // The pact's body names no Content-Type, and the verifier sends it so: it reaches the server whole, and the interaction holds.
      expect(keylessHeard, run.out).toContainEqual({ contentType: undefined, body: '{"limit":1}' });
      expect(run.out).toContain('✓ agent-client → agent-server: search assistants');
      expect(run.code, `${run.out}\n${run.err}`).toBe(0);
      expect(run.out).toContain(`JUnit: ${join(cwd, 'reports', 'contracts', 'junit.xml')}`);
      expect(existsSync(join(cwd, 'reports', 'contracts', 'junit.xml'))).toBe(true);
    } finally {
      process.chdir(before);
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  test('one that demands a key is the user\'s setup: exit 2, saying what it answered', async () => {
    const run = await apc(['verify', '--agent-server-url', urlOf(demanding), '--pacts', dir]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('without a key answered 401: it demands a key');
  });
});

// The quick Docker check before testcontainers: where no socket answers it says so well under a
// second; a socket that accepts, or a setup it cannot judge, is left to testcontainers. The image
// tests' own Docker check (test/support/docker.ts) asks it before running `docker info`.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ContainerError, dockerClient } from '../../harness/reference/docker.ts';
import { dockerSocketProblem, SYSTEM_SOCKETS } from '../../harness/reference/docker-socket.ts';
import { dockerProblem } from '../support/docker.ts';

describe('the quick Docker socket check', () => {
  let home: string;
  let missing: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'apc-docker-home-'));
    missing = join(home, 'no-such-docker.sock');
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  /** An environment where only DOCKER_HOST could lead to a daemon. */
  const envWith = (dockerHost: string) => ({ DOCKER_HOST: dockerHost, HOME: home, XDG_RUNTIME_DIR: home });

  test('a DOCKER_HOST at a missing socket is named as not answering, well under a second', async () => {
    const started = performance.now();
    const problem = await dockerSocketProblem({ env: envWith(`unix://${missing}`), platform: 'linux', systemSockets: [] });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(problem).toContain(`${missing} does not exist`);
  });

  test('a closed TCP port is named as refusing', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const problem = await dockerSocketProblem({ env: envWith(`tcp://127.0.0.1:${port}`), platform: 'linux', systemSockets: [] });
    expect(problem).toContain(`tcp://127.0.0.1:${port} refused`);
  });

  test('a socket that accepts a connection is no problem, nor is a wrong DOCKER_HOST when a system socket answers', async () => {
    const path = join(home, 'docker.sock');
    const server: Server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      expect(await dockerSocketProblem({ env: envWith(`unix://${path}`), platform: 'linux', systemSockets: [] })).toBeUndefined();
      expect(await dockerSocketProblem({ env: envWith(`unix://${missing}`), platform: 'linux', systemSockets: [path] })).toBeUndefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('setups it cannot judge are left to testcontainers', async () => {
    expect(await dockerSocketProblem({ env: envWith('ssh://user@host'), platform: 'linux', systemSockets: [] })).toBeUndefined();
    expect(await dockerSocketProblem({ env: envWith(`unix://${missing}`), platform: 'win32', systemSockets: [] })).toBeUndefined();
    const configured = mkdtempSync(join(tmpdir(), 'apc-docker-home-'));
    writeFileSync(join(configured, '.testcontainers.properties'), 'docker.host=tcp://example:2375\n');
    const env = { DOCKER_HOST: `unix://${missing}`, HOME: configured, XDG_RUNTIME_DIR: configured };
    expect(await dockerSocketProblem({ env, platform: 'linux', systemSockets: [] })).toBeUndefined();
    rmSync(configured, { recursive: true, force: true });
  });

  const systemSocketHere = SYSTEM_SOCKETS.some((p) => existsSync(p)) || existsSync(join('/run/user', String(process.getuid?.()), 'docker.sock'));
  test.skipIf(systemSocketHere)('dockerClient refuses at once with a ContainerError (skipped where a system Docker socket exists)', async () => {
    const saved = { DOCKER_HOST: process.env.DOCKER_HOST, HOME: process.env.HOME, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR };
    Object.assign(process.env, envWith(`unix://${missing}`));
    try {
      const started = performance.now();
      const error = await dockerClient().catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(error).toBeInstanceOf(ContainerError);
      expect((error as Error).message).toContain('need Docker, and none answered');
      expect((error as Error).message).toContain(missing);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  test('the Docker check of the image tests asks the socket first: no daemon costs no `docker info`', async () => {
    const started = performance.now();
    const problem = await dockerProblem({ env: envWith(`unix://${missing}`), platform: 'linux', systemSockets: [] });
    expect(performance.now() - started).toBeLessThan(1_000);
    // The socket check's own words: `docker info` would have said "Cannot connect to the Docker daemon".
    expect(problem).toMatch(/^no Docker socket answers: /);
    expect(problem).toContain(`${missing} does not exist`);
  });
});

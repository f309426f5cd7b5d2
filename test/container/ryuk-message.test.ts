// Without a registry, `--reference container` used to fail saying to set APC_BASE_IMAGE, when the
// image that could not be pulled was testcontainers' reaper, Ryuk (issue: a newcomer's first hour).
// The message names the real cause and its fix. Needs Docker (test/support/docker.ts); the reaper's
// image is one no registry has, so the pull fails whether or not a registry is reachable.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../support/certify.ts';
import { dockerProblem } from '../support/docker.ts';

const problem = await dockerProblem();

describe.skipIf(problem !== undefined)(`apc certify --reference container, Ryuk not pullable${problem ? ` (skipped: ${problem})` : ''}`, () => {
  test('exits 2 naming Ryuk, its image and TESTCONTAINERS_RYUK_DISABLED=true, not the base image', async () => {
    const image = 'apc-no-registry.invalid/ryuk:none';
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', RYUK_CONTAINER_IMAGE: image };
    delete env.TESTCONTAINERS_RYUK_DISABLED;
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), 'certify', '--reference', 'container', '--requirements', 'CP-DEL-001'], {
      cwd: tmpdir(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, output).toBe(2);
    expect(output).toContain(`testcontainers could not start Ryuk, its reaper of leftover containers (image ${image}, pulled from a registry)`);
    expect(output).toContain('set TESTCONTAINERS_RYUK_DISABLED=true');
    expect(output).not.toContain('APC_BASE_IMAGE');
  }, 300_000);
});

// experiment-uploader's consumer tests (registered by importing consumer.ts, so they run first)
// write its pact; the experiment upload endpoint verifies it right after, against the reference
// implementation and against one that accepts rows outside the experiment window.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../harness/root.ts';
import { startTarget } from '../test/support/reference-target.ts';
import { CONSUMER, PROVIDER } from './experiment-uploader/consumer.ts';
import { pactFile } from './pact-setup.ts';
import { failuresOf, verifyAgainstReference } from './verify-reference.ts';

describe('provider experiment-upload verifies the experiment-uploader pact', () => {
  it('passes against the reference implementation', async () => {
    const results = await verifyAgainstReference(CONSUMER, PROVIDER);
    expect(failuresOf(results)).toEqual({});
    expect(results).toHaveLength(3);
  });

  it('fails when a row outside the experiment window is accepted', async () => {
    const results = await verifyAgainstReference(CONSUMER, PROVIDER, { faults: ['eu.no-window-check'] });
    const failed = failuresOf(results);
    expect(Object.keys(failed)).toEqual(['an upload with a row that starts before the experiment window']);
    expect(failed['an upload with a row that starts before the experiment window']!.join('\n')).toMatch(/status/i);
  });
});

describe('apc contracts verify --tracing-url', () => {
  /** `apc contracts verify` as a user runs it: a process of its own, all of whose output is read. */
  async function verifyByUrl(faults: string[]): Promise<{ code: number | null; out: string; junit: string }> {
    // Only this pact, copied: other test files may be writing theirs into contracts/pacts meanwhile.
    const dir = mkdtempSync(join(tmpdir(), 'apc-verify-'));
    copyFileSync(pactFile(CONSUMER, PROVIDER), join(dir, 'pact.json'));
    const target = await startTarget(faults);
    let out = '';
    try {
      const args = ['contracts', 'verify', '--tracing-url', target.server.urls.experimentUpload, '--api-key', target.apiKey, '--pacts', dir, '--junit', join(dir, 'junit.xml')];
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), ...args], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const code = await new Promise<number | null>((done) => child.on('close', done));
      return { code, out, junit: readFileSync(join(dir, 'junit.xml'), 'utf8') };
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /**
   * Only apc's own lines: Pact's native verifier prints its own account of every interaction (and
   * "There were N pact failures") to its process's output, which apc keeps to itself.
   */
  const ownLines = (out: string) => out.split('\n').filter((line) => line && !/^(Verifying experiment-uploader → |[✓✗] | {4}|passed: |failed: )/.test(line));

  it('exits 0 when every interaction holds, prints only its own lines, and writes JUnit with the requirement ids', async () => {
    const run = await verifyByUrl([]);
    expect(run.code, run.out).toBe(0);
    expect(ownLines(run.out)).toEqual([]);
    expect(run.out).toContain('passed: 3 of 3 interactions hold.');
    expect(run.junit).toContain('<property name="requirements" value="EU-TW-002"/>');
    expect(run.junit).not.toContain('<failure');
  });

  it('exits 1 when the target accepts a row outside the window, naming the interaction in JUnit', async () => {
    const run = await verifyByUrl(['eu.no-window-check']);
    expect(run.code, run.out).toBe(1);
    expect(ownLines(run.out)).toEqual([]);
    expect(run.out).not.toMatch(/pact failures|Verification unsuccessful/);
    expect(run.out).toContain('✗ experiment-uploader → experiment-upload: an upload with a row that starts before the experiment window  [EU-TW-002]');
    expect(run.junit).toMatch(/<testcase name="an upload with a row that starts before the experiment window"[^]*?<failure /);
  });
});

// A failure found by a command sequence (CP-SEQ-001's property) reads the same every night: its
// message is short and the same whatever the seed (the sequence, long and random, is the failure's
// input), so the nightly diff does not list it as "changed message"; its expected and seen name
// the fields compared (docs/reports.md, "Evidence"); and no generated secret value appears in clear
// anywhere in the report folder, even those of PATCHes the target never received.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { evidenceProblems } from '../../harness/conformance/evidence.ts';
import { diffReports } from '../../harness/report/diff.ts';
import { certifyHere, keptSuiteWorkers, type CertifyRun } from '../support/certify.ts';
import { scratchDir } from '../support/scratch.ts';

const suites = keptSuiteWorkers();
/** Every generated secret value has this form (generators/control-plane/values.ts). */
const GENERATED_SECRET = /sv-[A-Za-z0-9]{8,16}/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const bySequence = (run: CertifyRun) =>
  (run.report?.requirements ?? []).flatMap((r) => r.failures.filter((f) => f.message.includes('found by a command sequence')).map((f) => ({ id: r.id, f })));

describe('failures found by a command sequence', () => {
  const runs: CertifyRun[] = [];
  const dir = scratchDir('sequence-failures');
  const certifySeed = async (seed: string) =>
    certifyHere(
      {
        args: [
          '--interfaces',
          'control-plane',
          '--requirements',
          'CP-SEQ-001,CP-REV-001,CP-REV-006,CP-REV-008',
          '--reference-fault',
          'cp.no-revision-on-secrets',
          '--seed',
          seed,
          '--runs',
          '10',
        ],
        reportDir: join(dir, seed),
      },
      suites,
    );

  test('two seeds: the same short message, the sequence in the input, evidence that names its fields', { timeout: 300_000 }, async () => {
    for (const seed of ['11', '12']) runs.push(await certifySeed(seed));
    const found = runs.map(bySequence);
    for (const [i, list] of found.entries()) expect(list.length, runs[i]!.stdout + runs[i]!.stderr).toBeGreaterThan(0);
    const messages = found.map((list) => [...new Set(list.map(({ f }) => f.message))]);
    expect(messages[0]).toEqual(messages[1]);
    for (const { f } of found.flat()) {
      expect(f.message.length).toBeLessThan(200);
      expect(f.message).not.toMatch(/create\(|patch\(#/);
      expect(f.input).toMatch(/^create\(/);
      expect(f.input).toContain('patch(#');
      expect(evidenceProblems(f)).toEqual([]);
    }
    // Night 2 against night 1: nothing under "changed message".
    expect(diffReports(runs[0]!.report!, runs[1]!.report!).changedMessages).toEqual([]);
  });

  test('no generated secret value is in clear in the report folder or the terminal', () => {
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      const places = [
        ...filesUnder(run.reportDir).map((file) => ({ file, text: readFileSync(file, 'utf8') })),
        { file: 'stdout', text: run.stdout + run.stderr },
      ];
      const clear = places.flatMap(({ file, text }) => (text.match(GENERATED_SECRET) ?? []).map((value) => `${value} in ${file}`));
      expect(clear).toEqual([]);
      // The input did hold secrets: they are there, redacted.
      expect(bySequence(run).some(({ f }) => f.input?.includes('[redacted]'))).toBe(true);
    }
  });
});

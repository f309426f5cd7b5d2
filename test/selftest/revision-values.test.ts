// CP-REV-014 (a deployment's source_revision_config holds its latest revision's values) judged on
// data that can reveal its fault: a target whose deployments keep showing their first revision's
// values, certified through the selftest's proxy, fails it and nothing else, in both modes; the
// reference passes it; a profile with no second value for any source it offers gets
// not-applicable with the fixture to add, never a vacuous pass. The certifications run inside this
// process and share one suite worker (`keptSuiteWorkers`): none of them tests the process itself.
import { describe, expect, test } from 'vitest';
import { referenceProfileFile, startReferenceTarget } from '../../harness/reference/reference-target.ts';
import { proxyMutantSubjects } from '../../harness/selftest/mutants/proxy-mutants.ts';
import { runSubject, type RunSettings } from '../../harness/selftest/run-subject.ts';
import type { Mutant } from '../../harness/selftest/subjects.ts';
import { startProxy } from '../../harness/proxy/proxy.ts';
import { certifyHere, keptSuiteWorkers, type CertifyRun } from '../support/certify.ts';

const kept = keptSuiteWorkers();
const settings: RunSettings = { runs: 3, seed: 5, seeds: 1, detectionRuns: 3, timeoutMs: 300_000, batches: kept.suites };
const keepsFirst = proxyMutantSubjects().find((m) => m.id === 'cp.deployment-keeps-first-revision-config')!;
const SCOPE = ['CP-REV-01[34]', 'CP-REVL-005'];

describe.each(['hosted', 'self-hosted'] as const)('a %s control plane', (mode) => {
  test('whose deployments keep their first revision’s values fails CP-REV-014, and only it', async () => {
    const run = await runSubject({ ...keepsFirst, mode, scope: SCOPE } satisfies Mutant, settings);
    expect(run.error).toBeUndefined();
    expect(run.failed.map((f) => f.id)).toEqual(['CP-REV-014']);
    expect(run.failed[0]!.message).toMatch(/still shows the earlier (image_uri|repo_ref|source_tarball_path)/);
    expect(run.blocked).toEqual([]);
  }, 320_000);
});

test('the reference passes CP-REV-014 on a PATCH that changes its image', async () => {
  const run = await runSubject({ kind: 'variation', id: 'reference', what: 'the reference as it is', interface: 'control-plane', scope: SCOPE }, settings);
  expect(run.failed).toEqual([]);
  expect(run.verdict).toBe('passed');
}, 320_000);

/** Certifies CP-REV-014 on the hosted reference (behind the mutant's proxy when `broken`), with a profile offering `sources` and no second fixture values. */
async function withoutSecondValues(sources: string[], broken: boolean): Promise<CertifyRun> {
  const target = await startReferenceTarget({ mode: 'hosted' });
  const proxy = broken
    ? await startProxy(target.urls['control-plane'], keepsFirst.proxy!({ apiKey: target.grants[0]!.key, otherApiKey: target.grants[1]!.key }))
    : undefined;
  try {
    const file = referenceProfileFile({ apply: target.apply, urls: { ...target.urls, ...(proxy ? { 'control-plane': proxy.url } : {}) } }) as {
      fixtures: Record<string, unknown>;
    };
    const { otherImageUri: _image, gitforge: _gitforge, ...fixtures } = file.fixtures;
    return await certifyHere(
      {
        profile: { ...file, sources, fixtures },
        args: ['--interfaces', 'control-plane', '--requirements', 'CP-REV-014', '--seed', '1'],
        env: { APC_API_KEY: target.grants[0]!.key, APC_OTHER_API_KEY: target.grants[1]!.key },
        timeoutMs: 300_000,
      },
      kept,
    );
  } finally {
    await proxy?.close();
    await target.close();
  }
}

test('with no second value and no upload flow, CP-REV-014 is not applicable and names the fixture to add', async () => {
  const run = await withoutSecondValues(['internal_container'], false);
  expect(run.status('CP-REV-014'), run.stderr).toBe('not-applicable');
  expect(run.result('CP-REV-014')!.reason).toMatch(/fixtures\.otherImageUri/);
}, 320_000);

test('with no second value, an internal_source target is judged on a freshly uploaded tarball', async () => {
  expect((await withoutSecondValues(['internal_source'], false)).status('CP-REV-014')).toBe('passed');
  const broken = await withoutSecondValues(['internal_source'], true);
  expect(broken.status('CP-REV-014')).toBe('failed');
  expect(broken.result('CP-REV-014')!.failures[0]!.message).toMatch(/still shows the earlier source_tarball_path/);
}, 640_000);

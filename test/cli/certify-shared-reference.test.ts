// The run's shared reference implementation (test/support/shared-reference.ts) is certified by
// URL, whichever way global setup started it: in-process by default, or as a container with
// APC_REFERENCE=container (`.ci/run` does both). The suites see no difference. The run goes inside
// this process on one suite worker: nothing here is about the process, and a child process with
// the workers a URL target gets cost about 1 s more CPU.
import { expect, test } from 'vitest';
import { certifyHere } from '../support/certify.ts';
import { sharedReference, sharedReferenceCertify } from '../support/shared-reference.ts';

test('apc certify by URL certifies the shared reference (a process, or the image under testcontainers)', async () => {
  const reference = sharedReference();
  // A few quick rules of each interface: enough to show all three listeners answer as the spec says.
  const run = await certifyHere(sharedReferenceCertify(['--requirements', 'CP-AUTH-*,AS-AUTH-*,AS-SSE-*,EU-AUTH-*']));
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(['passed', 'certified']).toContain(run.report?.verdict);
  expect(run.report?.requirements.filter((r) => r.status !== 'passed')).toEqual([]);
  expect(run.report?.target.reference).toBe(false);
  expect(run.report?.target.urls).toEqual(reference.urls);
  expect(reference.instance.kind).toBe(process.env.APC_REFERENCE ?? 'process');
}, 600_000);

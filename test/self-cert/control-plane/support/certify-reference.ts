// Running `apc certify` on the control plane of the reference implementation it starts itself,
// with fault switches, inside the test's process.
import { certifyHere, type CertifyRun } from '../../../support/certify.ts';

export interface ReferenceRun {
  mode: 'hosted' | 'self-hosted';
  faults?: string[];
  requirements: string[];
  seed?: number;
  timeoutMs?: number;
}

/** `apc certify` with no URL: it starts the reference itself, with the given fault switches. */
export function certifyReference(run: ReferenceRun): Promise<CertifyRun> {
  return certifyHere({
    args: [
      '--interfaces', 'control-plane',
      '--control-plane-mode', run.mode,
      '--requirements', run.requirements.join(','),
      '--seed', String(run.seed ?? 1),
      ...(run.faults ?? []).flatMap((fault) => ['--reference-fault', fault]),
    ],
    ...(run.timeoutMs ? { timeoutMs: run.timeoutMs } : {}),
  });
}

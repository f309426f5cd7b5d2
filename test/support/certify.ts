// Runs `apc certify` as a user would (a child process) and returns its exit code, its output and
// the compliance.json it wrote. Self-certification tests use it against the reference
// implementation, with or without deliberate faults, and against small broken servers.
import { resolve } from 'node:path';
import { certifyChild, type ChildCertifyOptions, type ChildCertifyRun } from '../../harness/selftest/certify-child.ts';
import type { ComplianceReport, RequirementResult } from '../../harness/report/compliance.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export interface CertifyRun extends ChildCertifyRun {
  report: ComplianceReport | undefined;
  /** Status of a requirement in the report (undefined when not selected). */
  status(id: string): RequirementResult['status'] | undefined;
  result(id: string): RequirementResult | undefined;
}

export type CertifyOptions = ChildCertifyOptions;

export async function certify(options: CertifyOptions): Promise<CertifyRun> {
  const run = await certifyChild(options);
  const result = (id: string) => run.report?.requirements.find((r) => r.id === id);
  return { ...run, result, status: (id) => result(id)?.status };
}

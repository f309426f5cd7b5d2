// How to see a failure again, as every format prints it: the recorded `apc certify` line (it names
// the target as certified: a URL with its profile, or the reference with its fault switches), and,
// for the reference, the `apc serve` line that starts it again as certified on the same ports, so
// the recorded curl lines reach a reference with the same faults rather than a correct one.
import type { FailureRecord } from '../conformance/failure.ts';
import type { ComplianceReport } from './compliance.ts';
import { apcCommand } from '../apc-command.ts';

export interface ReproductionLine {
  label: string;
  text: string;
}

const PORT_FLAGS = [
  ['control-plane', '--control-plane-port'],
  ['agent-server', '--agent-server-port'],
  ['experiment-upload', '--tracing-port'],
] as const;

/** `apc serve` with the certified reference's mode, faults, platform-like behaviours and ports; undefined for a URL target. */
export function serveLine(target: ComplianceReport['target']): string | undefined {
  if (!target.reference) return undefined;
  const { platformLike } = target;
  const flags = [
    target.controlPlaneMode === 'self-hosted' ? '--mode self-hosted' : '',
    ...(target.faults ?? []).map((f) => `--fault ${f}`),
    platformLike ? `--platform-like ${platformLike.behaviours.join(',')}` : '',
    platformLike && platformLike.timeScale !== 1 ? `--time-scale ${platformLike.timeScale}` : '',
  ];
  for (const [name, flag] of PORT_FLAGS) {
    const port = target.urls[name] ? new URL(target.urls[name]).port : '';
    if (port) flags.push(`${flag} ${port}`);
  }
  const tenant = target.profile.tenantId;
  if (tenant && tenant !== '[redacted]') flags.push(`--api-key "$APC_API_KEY:${tenant}"`);
  return [`${apcCommand()} serve`, ...flags].filter(Boolean).join(' ');
}

export function reproductionLines(report: ComplianceReport, failure: FailureRecord): ReproductionLine[] {
  const lines: ReproductionLine[] = [];
  if (failure.repro) lines.push({ label: 'Run this check again:', text: failure.repro });
  const serve = failure.exchanges.length > 0 ? serveLine(report.target) : undefined;
  if (serve) {
    lines.push({ label: 'The curl lines went to the in-repo reference implementation, which stopped with the run; to send them, start it again as certified (its storage starts empty):', text: serve });
  }
  return lines;
}

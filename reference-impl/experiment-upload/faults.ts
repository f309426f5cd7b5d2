// Fault switches of the experiment upload listener: deliberate deviations from the spec, each
// small and marked where it acts, so the harness's negative self-tests can check that a broken
// server is caught. Each is one record below; faults.md's tables are rendered from them.
import type { ReferenceContext } from '../context.ts';
import type { FaultSwitch } from '../fault-switch.ts';

export const EXPERIMENT_UPLOAD_FAULT_SWITCHES = [
  { id: 'eu.no-window-check', what: 'Rows whose `start_time` or `end_time` lies outside the experiment window are accepted.', breaks: '4.3 rule 4',
    family: 'experiments', fails: { mode: 'hosted', requirements: ['EU-TW-002', 'EU-TW-003'] } },
  { id: 'eu.stats-filled-at-upload', what: 'Statistics (run_count, latencies, feedback stats, error rate ...) are non-null in the upload response already.',
    breaks: '2.8: null right after upload', family: 'experiments', fails: { mode: 'hosted', requirements: ['EU-STAT-001'] } },
  { id: 'eu.tokens-not-null', what: 'Token and cost fields are `0` instead of `null`, at upload and later.', breaks: '2.8: token and cost fields stay null',
    family: 'experiments', fails: { mode: 'hosted', requirements: ['EU-STAT-003', 'EU-STAT-005'] } },
  { id: 'eu.no-grouping', what: 'Every upload creates a new dataset (fresh id), even for a `dataset_id` or `dataset_name` seen before.', breaks: '4.3 rule 3',
    family: 'experiments', fails: { mode: 'hosted', requirements: ['EU-DS-004'] } },
  { id: 'eu.dataset-required-not-enforced',
    what: 'An upload with neither `dataset_id` nor `dataset_name` is accepted; the dataset gets a generated id and name.', breaks: '4.3 rule 1',
    family: 'experiments', fails: { mode: 'hosted', requirements: ['EU-DS-001'] } },
  { id: 'eu.internal-dataset-accepted',
    what: 'An upload naming a dataset made by `POST /api/v1/datasets` (by id or name) lands in it; the dataset stays `externally_managed: false`.',
    breaks: '4.3 rules 6, 7', family: 'experiments', fails: { mode: 'hosted', requirements: ['EU-DS-006'] } },
  { id: 'eu.stats-never-filled', what: 'Statistics stay null forever.', breaks: '2.8: filled after the runs are persisted', family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-STAT-002'] } },
  { id: 'eu.missing-dataset-in-response', what: 'The upload response has `experiment` but no `dataset`.',
    breaks: '2.8: response has `dataset` and `experiment`', family: 'experiments', fails: { mode: 'hosted', requirements: ['EU-RESP-001'] } },
] as const satisfies readonly FaultSwitch[];

export type ExperimentUploadFault = (typeof EXPERIMENT_UPLOAD_FAULT_SWITCHES)[number]['id'];
export const EXPERIMENT_UPLOAD_FAULTS: readonly ExperimentUploadFault[] = EXPERIMENT_UPLOAD_FAULT_SWITCHES.map((s) => s.id);

/** The experiment-upload faults switched on in `ctx`. */
export type FaultCheck = (fault: ExperimentUploadFault) => boolean;

export function faultsOf(ctx: Pick<ReferenceContext, 'faults'>): FaultCheck {
  return (fault) => ctx.faults.has(fault);
}

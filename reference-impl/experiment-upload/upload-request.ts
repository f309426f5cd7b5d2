// Checks an experiment upload body (spec 2.8, 4.3) and turns it into an UploadInput. The schema
// decides the shape; this adds what a schema cannot say: datetimes with a naive-means-UTC reading
// at microsecond precision, the dataset rule, and the time window. Every refusal is a 422
// HTTPValidationError whose loc names the field (`["body", "results", 3, "start_time"]`).
import type { ExperimentUploadRequest, Feedback } from '../../schemas/index.ts';
import { validate } from '../../schemas/index.ts';
import { unprocessable, type ValidationIssue } from '../http-errors.ts';
import { formatMicros, parseDatetime, type Micros } from './datetime.ts';
import type { FaultCheck } from './faults.ts';
import { nameLengthIssue } from '../names.ts';
import type { FeedbackRecord, JsonObject } from './records.ts';

export interface UploadRow {
  rowId: string;
  inputs: JsonObject;
  expectedOutputs: JsonObject | null;
  actualOutputs: JsonObject | null;
  scores: FeedbackRecord[];
  start: Micros;
  end: Micros;
  runName: string | null;
  error: string | null;
  runMetadata: JsonObject | null;
}

export interface UploadInput {
  experimentName: string;
  experimentDescription: string | null;
  start: Micros;
  end: Micros;
  datasetId: string | null;
  datasetName: string | null;
  datasetDescription: string | null;
  metadata: JsonObject | null;
  summaryScores: FeedbackRecord[];
  rows: UploadRow[];
}

type Loc = (string | number)[];

/** The platform's limit on feedback keys (FIELD-NOTES); the shared schema leaves it out. */
const MAX_FEEDBACK_KEY = 180;

/** Collects issues while reading fields, so one response lists every problem found. */
class Reader {
  readonly issues: ValidationIssue[] = [];

  datetime(text: string, loc: Loc): Micros {
    const parsed = parseDatetime(text);
    if (parsed.ok) return parsed.micros;
    this.issues.push({ loc, msg: parsed.msg, type: 'datetime_parsing' });
    return 0n;
  }

  feedback(list: Feedback[] | null | undefined, loc: Loc, now: string): FeedbackRecord[] {
    return (list ?? []).map((f, i) => {
      // Counted in code points, as the platform's Python does.
      if ([...f.key].length > MAX_FEEDBACK_KEY) {
        this.issues.push({ loc: [...loc, i, 'key'], msg: `String should have at most ${MAX_FEEDBACK_KEY} characters`, type: 'string_too_long' });
      }
      return {
        key: f.key,
        score: f.score ?? null,
        value: f.value ?? null,
        comment: f.comment ?? null,
        feedback_source: f.feedback_source ?? null,
        feedback_config: (f.feedback_config ?? null) as JsonObject | null,
        created_at: f.created_at == null ? now : formatMicros(this.datetime(f.created_at, [...loc, i, 'created_at'])),
        modified_at: f.modified_at == null ? now : formatMicros(this.datetime(f.modified_at, [...loc, i, 'modified_at'])),
        correction: (f.correction ?? null) as JsonObject | string | null,
      };
    });
  }
}

const lowerUuid = (id: string | null | undefined): string | null => (id == null ? null : id.toLowerCase());

/** The checked upload, or a thrown 422 listing every issue. `now` stands in for omitted feedback times. */
export function readUpload(body: unknown, faults: FaultCheck, now: string): UploadInput {
  const shape = validate('ExperimentUploadRequest', body);
  if (!shape.ok) throw unprocessable(shape.issues.map((issue) => ({ ...issue, loc: ['body', ...issue.loc] })));
  const request = body as ExperimentUploadRequest;
  const tooLong = [...nameLengthIssue(request.experiment_name, ['body', 'experiment_name']), ...nameLengthIssue(request.dataset_name, ['body', 'dataset_name'])];
  if (tooLong.length > 0) throw unprocessable(tooLong);

  const read = new Reader();
  const start = read.datetime(request.experiment_start_time, ['body', 'experiment_start_time']);
  const end = read.datetime(request.experiment_end_time, ['body', 'experiment_end_time']);
  const timesRead = read.issues.length === 0;
  if (timesRead && end < start) {
    read.issues.push({ loc: ['body', 'experiment_end_time'], msg: 'experiment_end_time must not be before experiment_start_time', type: 'value_error' });
  }
  const datasetId = lowerUuid(request.dataset_id);
  const datasetName = request.dataset_name ?? null;
  // FAULT eu.dataset-required-not-enforced: an upload naming no dataset passes.
  if (datasetId === null && datasetName === null && !faults('eu.dataset-required-not-enforced')) {
    read.issues.push({ loc: ['body'], msg: 'Either dataset_id or dataset_name must be given; send the identifier of the dataset in your own system', type: 'missing' });
  }
  const rows = request.results.map((row, i): UploadRow => {
    const loc = ['body', 'results', i];
    const before = read.issues.length;
    const rowStart = read.datetime(row.start_time, [...loc, 'start_time']);
    const rowEnd = read.datetime(row.end_time, [...loc, 'end_time']);
    if (read.issues.length === before) {
      if (rowEnd < rowStart) {
        read.issues.push({ loc: [...loc, 'end_time'], msg: `results[${i}].end_time must not be before its start_time`, type: 'value_error' });
      }
      // FAULT eu.no-window-check: rows outside the experiment window pass.
      if (timesRead && !faults('eu.no-window-check')) {
        const window = `[${formatMicros(start)}, ${formatMicros(end)}]`;
        for (const [field, time] of [['start_time', rowStart], ['end_time', rowEnd]] as const) {
          if (time < start || time > end) {
            read.issues.push({
              loc: [...loc, field],
              msg: `results[${i}].${field} ${formatMicros(time)} is outside the experiment window ${window}`,
              type: 'value_error',
            });
          }
        }
      }
    }
    return {
      rowId: row.row_id.toLowerCase(),
      inputs: row.inputs as JsonObject,
      expectedOutputs: (row.expected_outputs ?? null) as JsonObject | null,
      actualOutputs: (row.actual_outputs ?? null) as JsonObject | null,
      scores: read.feedback(row.evaluation_scores, [...loc, 'evaluation_scores'], now),
      start: rowStart,
      end: rowEnd,
      runName: row.run_name ?? null,
      error: row.error ?? null,
      runMetadata: (row.run_metadata ?? null) as JsonObject | null,
    };
  });
  const summaryScores = read.feedback(request.summary_experiment_scores, ['body', 'summary_experiment_scores'], now);
  if (read.issues.length > 0) throw unprocessable(read.issues);
  return {
    experimentName: request.experiment_name,
    experimentDescription: request.experiment_description ?? null,
    start,
    end,
    datasetId,
    datasetName,
    datasetDescription: request.dataset_description ?? null,
    metadata: (request.experiment_metadata ?? null) as JsonObject | null,
    summaryScores,
    rows,
  };
}

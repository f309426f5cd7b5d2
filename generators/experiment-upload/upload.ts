// Uploads (section 2.8) as data: a window, rows with their times, optional fields, a way of
// naming the dataset, and the spelling of every datetime. `uploadBody` turns a case into the
// request body once the suite supplies run-prefixed names and fresh ids; the classification
// functions say what a case is (inside the window, on an edge, outside; which required field is
// missing) so a shrunk case can be re-checked.
import fc from 'fast-check';
import { instant, naiveWindowSpelling, spelling, writer, type Spelling } from './datetimes.ts';
import { feedbackBody, feedbackCase, type FeedbackCase } from './feedback.ts';
import { jsonObject, shortText } from './values.ts';

export type JsonObject = Record<string, unknown>;

/** How the upload names its dataset (rule 1: at least one of the two). */
export type DatasetNaming = 'id' | 'name' | 'both' | 'none';

export interface RowCase {
  /** Milliseconds after the experiment start (may be negative or past the end for outside cases). */
  startMs: number;
  endMs: number;
  inputs: JsonObject;
  expected_outputs?: JsonObject;
  actual_outputs?: JsonObject;
  evaluation_scores?: FeedbackCase[];
  run_name?: string;
  error?: string;
  run_metadata?: JsonObject;
}

export interface UploadCase {
  /** Experiment start, epoch milliseconds. */
  startMs: number;
  /** Window length in milliseconds. */
  durationMs: number;
  rows: RowCase[];
  spelling: Spelling;
  naming: DatasetNaming;
  experiment_description?: string;
  dataset_description?: string;
  experiment_metadata?: JsonObject;
  summary_experiment_scores?: FeedbackCase[];
}

/** Names and ids the suite supplies: run-prefixed names, fresh uuids. */
export interface UploadIds {
  experimentName: string;
  datasetName: string;
  datasetId: string;
  /** One per row, used in turn. */
  rowIds: string[];
}

const optionalRowFields = {
  expected_outputs: jsonObject,
  actual_outputs: jsonObject,
  evaluation_scores: fc.array(feedbackCase, { maxLength: 3 }),
  run_name: shortText,
  error: shortText,
  run_metadata: jsonObject,
};

/** A row inside a window of `durationMs`: start <= end, both within [0, durationMs]. */
function rowInside(durationMs: number): fc.Arbitrary<RowCase> {
  return fc
    .record({
      a: fc.integer({ min: 0, max: durationMs }),
      b: fc.integer({ min: 0, max: durationMs }),
      inputs: jsonObject,
      ...optionalRowFields,
    }, { requiredKeys: ['a', 'b', 'inputs'] })
    .map(({ a, b, ...rest }) => ({ ...rest, startMs: Math.min(a, b), endMs: Math.max(a, b) }));
}

const windowLength = fc.oneof(fc.integer({ min: 2, max: 1_000 }), fc.integer({ min: 1_000, max: 86_400_000 }));

export interface UploadOptions {
  /** How the dataset is named; any valid way by default. */
  naming?: Exclude<DatasetNaming, 'none'>;
  /**
   * Zoned datetimes by default; naive ones (read as UTC only by the field notes, so checked at
   * level MAY) or a naive window with zoned rows only when asked for.
   */
  spelling?: Spelling['kind'];
}

/** A well-formed upload: every row inside the window. */
export function validUpload(options: UploadOptions = {}): fc.Arbitrary<UploadCase> {
  const { naming } = options;
  const kind = options.spelling ?? 'zoned';
  const spellings = kind === 'naive-window' ? naiveWindowSpelling : spelling.filter((s) => s.kind === kind);
  return windowLength.chain((durationMs) =>
    fc.record(
      {
        startMs: instant,
        durationMs: fc.constant(durationMs),
        rows: fc.array(rowInside(durationMs), { minLength: 1, maxLength: 4 }),
        spelling: spellings,
        naming: naming ? fc.constant(naming) : fc.constantFrom<DatasetNaming>('id', 'name', 'both'),
        experiment_description: shortText,
        dataset_description: shortText,
        experiment_metadata: jsonObject,
        summary_experiment_scores: fc.array(feedbackCase, { maxLength: 3 }),
      },
      { requiredKeys: ['startMs', 'durationMs', 'rows', 'spelling', 'naming'] },
    ),
  );
}

/** A valid upload with a row exactly on the window's start and one exactly on its end. */
export function edgeUpload(options: UploadOptions = {}): fc.Arbitrary<UploadCase> {
  return validUpload(options).chain((c) =>
    fc.record({ inputs: jsonObject, together: fc.boolean() }).map(({ inputs, together }) => {
      const edges: RowCase[] = together
        ? [{ startMs: 0, endMs: c.durationMs, inputs }]
        : [
            { startMs: 0, endMs: 0, inputs },
            { startMs: c.durationMs, endMs: c.durationMs, inputs },
          ];
      return { ...c, rows: [...edges, ...c.rows] };
    }),
  );
}

export type OutsideWhere = 'start-before' | 'end-after' | 'start-after' | 'end-before';

/**
 * A valid upload with one row moved outside the window by `byMs` (1 ms by default): its start
 * before the window start or after its end, or its end after the window end or before its start.
 */
export function outsideUpload(byMs?: number, options: UploadOptions = {}): fc.Arbitrary<UploadCase & { outside: OutsideWhere }> {
  return fc
    .record({
      base: validUpload(options),
      where: fc.constantFrom<OutsideWhere>('start-before', 'end-after', 'start-after', 'end-before'),
      by: byMs !== undefined ? fc.constant(byMs) : fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 86_400_000 })),
      pick: fc.nat(),
    })
    .map(({ base, where, by, pick }) => {
      const index = pick % base.rows.length;
      const row = base.rows[index]!;
      const end = base.durationMs;
      const moved: RowCase =
        where === 'start-before'
          ? { ...row, startMs: -by }
          : where === 'end-after'
            ? { ...row, endMs: end + by }
            : where === 'start-after'
              ? { ...row, startMs: end + by, endMs: end + by }
              : { ...row, startMs: -by, endMs: -by };
      return { ...base, rows: base.rows.map((r, i) => (i === index ? moved : r)), outside: where };
    });
}

export type WindowClass = 'inside' | 'edge' | 'outside';

/** Where the case's rows lie relative to the window (rule 4), computed from the instants. */
export function windowClass(c: UploadCase): WindowClass {
  const times = c.rows.flatMap((r) => [r.startMs, r.endMs]);
  if (times.some((t) => t < 0 || t > c.durationMs)) return 'outside';
  return times.some((t) => t === 0 || t === c.durationMs) ? 'edge' : 'inside';
}

/** The request body. */
export function uploadBody(c: UploadCase, ids: UploadIds): JsonObject {
  const write = writer(c.spelling);
  const at = (offset: number) => write.other(c.startMs + offset);
  const scores = (list: FeedbackCase[] | undefined) => list?.map((f) => feedbackBody(f, c.startMs, write.other));
  const body: JsonObject = {
    experiment_name: ids.experimentName,
    experiment_start_time: write.window(c.startMs),
    experiment_end_time: write.window(c.startMs + c.durationMs),
    ...(c.naming === 'id' || c.naming === 'both' ? { dataset_id: ids.datasetId } : {}),
    ...(c.naming === 'name' || c.naming === 'both' ? { dataset_name: ids.datasetName } : {}),
    ...(c.experiment_description !== undefined ? { experiment_description: c.experiment_description } : {}),
    ...(c.dataset_description !== undefined ? { dataset_description: c.dataset_description } : {}),
    ...(c.experiment_metadata !== undefined ? { experiment_metadata: c.experiment_metadata } : {}),
    ...(c.summary_experiment_scores !== undefined ? { summary_experiment_scores: scores(c.summary_experiment_scores) } : {}),
    results: c.rows.map((row, i) => {
      const { startMs, endMs, evaluation_scores, ...rest } = row;
      return {
        row_id: ids.rowIds[i % ids.rowIds.length],
        ...rest,
        ...(evaluation_scores !== undefined ? { evaluation_scores: scores(evaluation_scores) } : {}),
        start_time: at(startMs),
        end_time: at(endMs),
      };
    }),
  };
  return body;
}

/** Rows of the given durations (ms), one after another from the window start, no gaps. */
export function rowsOfDurations(durationsMs: number[], inputs: JsonObject = {}): { rows: RowCase[]; durationMs: number } {
  let at = 0;
  const rows = durationsMs.map((d) => {
    const row: RowCase = { startMs: at, endMs: at + d, inputs };
    at += d;
    return row;
  });
  return { rows, durationMs: at };
}

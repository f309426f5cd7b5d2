// Feedback of every shape section 2.8 allows: key alone, or with score, value, comment,
// feedback_source, feedback_config (continuous, categorical, freeform), created_at,
// modified_at, and a correction that is an object or a string. Timestamps are kept as
// milliseconds after the experiment start and written by the upload (upload.ts), so one upload
// never mixes naive and zoned datetimes.
import fc from 'fast-check';
import { matching } from '../matching.ts';
import { jsonObject, shortText } from './values.ts';

export interface FeedbackCase {
  key: string;
  score?: number;
  value?: string;
  comment?: string;
  feedback_source?: Record<string, unknown> & { type: string };
  feedback_config?: Record<string, unknown>;
  /** Milliseconds after the experiment start. */
  createdAfterMs?: number;
  modifiedAfterMs?: number;
  correction?: Record<string, unknown> | string;
}

/** Types of feedback source the field notes saw; the spec allows any string. */
const SOURCE_TYPES = ['api', 'app', 'model', 'auto_eval'];

export const feedbackConfig: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.tuple(fc.integer({ min: -10, max: 0 }), fc.integer({ min: 1, max: 10 })).map(([min, max]) => ({ type: 'continuous', min, max })),
  fc
    .uniqueArray(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 4 })
    .chain((values) =>
      fc.tuple(...values.map((value) => fc.option(shortText, { nil: undefined }).map((label) => (label === undefined ? { value } : { value, label })))),
    )
    .map((categories) => ({ type: 'categorical', categories })),
  fc.constant({ type: 'freeform' }),
);

const feedbackKey = matching(/^[a-z][a-z0-9_.-]{0,39}$/);

const fullFeedback: fc.Arbitrary<FeedbackCase> = fc.record(
  {
    key: feedbackKey,
    score: fc.oneof(fc.integer({ min: -100, max: 100 }), fc.double({ min: 0, max: 1, noNaN: true }).map((d) => (Object.is(d, -0) ? 0 : d))),
    value: shortText,
    comment: shortText,
    feedback_source: fc.tuple(fc.constantFrom(...SOURCE_TYPES), fc.option(jsonObject, { nil: undefined })).map(([type, extra]) => ({ ...extra, type })),
    feedback_config: feedbackConfig,
    createdAfterMs: fc.integer({ min: 0, max: 3_600_000 }),
    modifiedAfterMs: fc.integer({ min: 0, max: 3_600_000 }),
    correction: fc.oneof(jsonObject, shortText),
  },
  { requiredKeys: ['key'] },
);

/** A key alone, or a key with any combination of the optional fields. */
export const feedbackCase: fc.Arbitrary<FeedbackCase> = fc.oneof(fc.record({ key: feedbackKey }), fullFeedback);

/** The feedback as sent, its timestamps written by `datetime`. */
export function feedbackBody(f: FeedbackCase, startMs: number, datetime: (ms: number) => string): Record<string, unknown> {
  const { createdAfterMs, modifiedAfterMs, ...rest } = f;
  return {
    ...rest,
    ...(createdAfterMs !== undefined ? { created_at: datetime(startMs + createdAfterMs) } : {}),
    ...(modifiedAfterMs !== undefined ? { modified_at: datetime(startMs + modifiedAfterMs) } : {}),
  };
}

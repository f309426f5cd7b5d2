// The required fields of section 2.8 and bodies lacking one of them. `missingRequired` is the
// classification: the required fields a body lacks, so a shrunk case can be re-checked.
import type { JsonObject } from './upload.ts';
import { isObject } from '../../schemas/is-object.ts';

export const TOP_LEVEL_REQUIRED = ['experiment_name', 'experiment_start_time', 'experiment_end_time', 'results'] as const;
export const ROW_REQUIRED = ['row_id', 'inputs', 'start_time', 'end_time'] as const;
export const FEEDBACK_REQUIRED = ['key', 'feedback_source.type', 'feedback_config.categories.value'] as const;

export type RequiredField =
  | (typeof TOP_LEVEL_REQUIRED)[number]
  | `results.${(typeof ROW_REQUIRED)[number]}`
  | `feedback.${(typeof FEEDBACK_REQUIRED)[number]}`;

export const REQUIRED_FIELDS: RequiredField[] = [
  ...TOP_LEVEL_REQUIRED,
  ...ROW_REQUIRED.map((f) => `results.${f}` as const),
  ...FEEDBACK_REQUIRED.map((f) => `feedback.${f}` as const),
];


function rowsOf(body: JsonObject): JsonObject[] {
  return Array.isArray(body.results) ? body.results.filter(isObject) : [];
}

/** Every feedback of the body: summary scores and each row's evaluation scores. */
function feedbackOf(body: JsonObject): JsonObject[] {
  const lists = [body.summary_experiment_scores, ...rowsOf(body).map((r) => r.evaluation_scores)];
  return lists.flatMap((list) => (Array.isArray(list) ? list.filter(isObject) : []));
}

/** A feedback holding every nested required field, for bodies that carry none to remove from. */
const FULL_FEEDBACK: JsonObject = {
  key: 'correctness',
  score: 1,
  feedback_source: { type: 'api' },
  feedback_config: { type: 'categorical', categories: [{ value: 0, label: 'wrong' }, { value: 1, label: 'right' }] },
};

/** The body without `field`, removed from the row or feedback `pick` designates. */
export function withoutField(body: JsonObject, field: RequiredField, pick = 0): JsonObject {
  const copy = structuredClone(body);
  if ((TOP_LEVEL_REQUIRED as readonly string[]).includes(field)) {
    delete copy[field];
    return copy;
  }
  const rows = rowsOf(copy);
  if (field.startsWith('results.')) {
    delete rows[pick % rows.length]![field.slice('results.'.length)];
    return copy;
  }
  const row = rows[pick % rows.length]!;
  const full = structuredClone(FULL_FEEDBACK);
  row.evaluation_scores = [...(Array.isArray(row.evaluation_scores) ? row.evaluation_scores : []), full];
  if (field === 'feedback.key') delete full.key;
  else if (field === 'feedback.feedback_source.type') delete (full.feedback_source as JsonObject).type;
  else ((full.feedback_config as JsonObject).categories as JsonObject[]).forEach((c) => delete c.value);
  return copy;
}

/** The required fields the body lacks. */
export function missingRequired(body: JsonObject): RequiredField[] {
  const missing: RequiredField[] = TOP_LEVEL_REQUIRED.filter((f) => !(f in body));
  const rows = rowsOf(body);
  for (const f of ROW_REQUIRED) if (rows.some((r) => !(f in r))) missing.push(`results.${f}`);
  const feedback = feedbackOf(body);
  if (feedback.some((f) => !('key' in f))) missing.push('feedback.key');
  if (feedback.some((f) => isObject(f.feedback_source) && !('type' in f.feedback_source))) missing.push('feedback.feedback_source.type');
  const categories = feedback.flatMap((f) => (isObject(f.feedback_config) && Array.isArray(f.feedback_config.categories) ? f.feedback_config.categories : []));
  if (categories.some((c) => isObject(c) && !('value' in c))) missing.push('feedback.feedback_config.categories.value');
  return missing;
}

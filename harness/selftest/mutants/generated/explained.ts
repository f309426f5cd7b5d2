// Reviewed survivors of the generated mutants: each either a deviation the spec allows (with the
// spec sentence that allows it) or one the three interfaces cannot observe (with the reason). A
// survivor not listed here is a problem of `apc selftest`: it needs a new or stronger check.
import { selector } from '../../../catalogue.ts';

export interface Explanation {
  /** Ids of generated mutants (`*` any characters), as `apc selftest --only` takes them. */
  ids: string;
  place: 'allowed by the spec' | 'not observable';
  /** The spec sentence that allows it, or why no request can observe it. */
  why: string;
}

export const EXPLAINED: Explanation[] = [
  {
    ids: 'gen.deployment.name.stale,gen.deployment.source.stale,gen.deployment.id.stale,gen.deployment.tenant_id.stale,gen.deployment.created_at.stale',
    place: 'not observable',
    why: 'An equivalent mutant: 2.1 makes name and source "Immutable after creation" and id, tenant_id, created_at read-only values fixed at creation, so the first answer\'s value is the only right one.',
  },
  {
    ids: 'gen.assistant.assistant_id.stale,gen.assistant.graph_id.stale,gen.assistant.created_at.stale,gen.thread.thread_id.stale,gen.revision.id.stale,gen.revision.created_at.stale,gen.revision.source.stale,gen.revision.source_revision_config.stale',
    place: 'not observable',
    why: 'An equivalent mutant: an id, a creation time, a graph and a revision\'s own values (2.6: "On a Revision, they are those of the revision itself") never change after creation, so the first answer\'s value is the only right one.',
  },
  {
    ids: 'gen.uploadedexperiment.*.stale',
    place: 'not observable',
    why: 'An equivalent mutant: 4.3 defines one upload answer per experiment and no endpoint that reads the same experiment again, so no answer of the spec\'s endpoints about the same experiment comes after the first.',
  },
  {
    ids: 'gen.uploadeddataset.*.stale',
    place: 'allowed by the spec',
    why: 'A second upload to the same dataset (4.3 rule 3) answers about it again, but 2.8 lists the dataset\'s fields by name only ("dataset fields: name, description, created_at, ..."): how they change with a later upload is not shown, and its id and name stay the same by rule 3.',
  },
  {
    ids: 'gen.*.image_version.*,gen.deployment.secret_references.*',
    place: 'allowed by the spec',
    why: '2.1: image_version is "Optional" and secret_references "Only applicable for external_container source"; a target may omit them, and their values are not shown to change with any request the suites can make on every target.',
  },
  {
    ids: 'gen.uploadedexperiment.reference_dataset_id.swapped-identity,gen.uploadedexperiment.default_dataset_id.swapped-identity',
    place: 'allowed by the spec',
    why: '2.8 names these experiment fields only ("experiment fields: ..., default_dataset_id, reference_dataset_id, ..."); which dataset they name is not shown, so another id there breaks no statement of the spec.',
  },
  {
    ids: 'gen.*.updated_at.stale',
    place: 'allowed by the spec',
    why: '2.1 ("updated_at | date-time | Read-only."), 2.6 and 2.7 ("updated_at | timestamp") give updated_at a type and nothing more: when it moves is not shown, so one that keeps its first value breaks no statement of the spec.',
  },
];

/** The reviewed explanation of a surviving generated mutant, if any. */
export function explanationOf(id: string): Explanation | undefined {
  return EXPLAINED.find((e) => selector([e.ids])(id));
}

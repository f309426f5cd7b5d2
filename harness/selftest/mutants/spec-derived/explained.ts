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
  {
    ids: 'gen.assistant.name.stale,gen.assistant.metadata.stale',
    place: 'allowed by the spec',
    why: '4.2 gives PATCH /assistants/{assistant_id} one request member, "context (object; the whole configuration)", and no request of the spec is shown to change an assistant\'s name or metadata; so an assistant that keeps the name and metadata it was created with breaks no statement (the suites send the metadata again on every PATCH, so either reading passes).',
  },
  {
    ids: 'gen.post-assistants.ignored-input.description,gen.post-assistants.ignored-input.config,gen.post-assistants.ignored-input.assistant_id,gen.post-assistants.ignored-input.if_exists',
    place: 'allowed by the spec',
    why: '4.2 lists the request of POST /assistants as "graph_id (string, required), context (object), name (string)", and 2.7 says "Other assistant fields (for example a description or a version number) are not shown": what a target does with description, config, a chosen assistant_id or if_exists is not shown.',
  },
  {
    ids: 'gen.patch-assistants-assistant-id.ignored-input.graph_id,gen.patch-assistants-assistant-id.ignored-input.name,gen.patch-assistants-assistant-id.ignored-input.description,gen.patch-assistants-assistant-id.ignored-input.config',
    place: 'allowed by the spec',
    why: '4.2 lists the request of PATCH /assistants/{assistant_id} as "context (object; the whole configuration)" alone: what a target does with graph_id, name, description or config in a PATCH is not shown.',
  },
  {
    ids: 'gen.post-assistants.wrong-status.*,gen.patch-assistants-assistant-id.wrong-status.*,gen.post-assistants-search.wrong-status.*,gen.post-threads.wrong-status.*',
    place: 'allowed by the spec',
    why: '4.2 gives the agent server\'s answers as bodies ("Assistant object (2.7)", "List of assistants", "Thread with thread_id") without a status code, and 7 lists success codes for the control plane alone ("Success codes seen: 200 (GET, PATCH), 201 (POST create), 204 (DELETE)"); any 2xx success code is allowed.',
  },
  {
    ids: 'gen.post-api-v1-datasets-upload-experiment.ignored-input.experiment_metadata,gen.post-api-v1-datasets-upload-experiment.ignored-input.summary_experiment_scores',
    place: 'allowed by the spec',
    why: '2.8 lists experiment_metadata ("object, any shape. Optional.") and summary_experiment_scores ("array of Feedback. Optional.") in the request, but the response\'s experiment fields by name only ("extra", "feedback_stats", "session_feedback_stats", ...): where either shows in an answer is not shown, and no endpoint of the spec reads them back.',
  },
  {
    ids: 'gen.post-api-v1-datasets-upload-experiment.wrong-status.*',
    place: 'allowed by the spec',
    why: '4.3 gives the upload\'s answer as "Object with dataset and experiment" without a status code, and 7 says "Error responses of the agent server and of the experiment upload: not shown"; any 2xx success code is allowed.',
  },
  {
    ids: 'gen.deployment.status.stale',
    place: 'allowed by the spec',
    why: '3: "Deployment status values: AWAITING_DATABASE, READY, UNUSED, AWAITING_DELETE, UNKNOWN. Transitions: not shown." A deployment whose status keeps its first value breaks no statement of the spec.',
  },
  {
    ids: 'gen.post-v2-deployments.ignored-input.image_version',
    place: 'allowed by the spec',
    why: '4.1 lists the create body as "name, source, source_config, source_revision_config, secrets (secret_references for external_container)", and 2.1 gives image_version as "string or null | Optional." without saying what sets it: a create that ignores one breaks no statement.',
  },
  {
    ids: 'gen.get-v2-deployments.reordered',
    place: 'allowed by the spec',
    why: '4.1: "Not shown: query parameters and response shape of GET /v2/deployments." The spec fixes no order of the deployments listing (unlike the revisions listing, "latest first").',
  },
];

/** The reviewed explanation of a surviving generated mutant, if any. */
export function explanationOf(id: string): Explanation | undefined {
  return EXPLAINED.find((e) => selector([e.ids])(id));
}

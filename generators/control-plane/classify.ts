// Pure classification of control-plane requests: whether the spec makes a create body or a PATCH
// valid and, if not, which catalogue rules it breaks. Suites use it to know what to expect, and as
// `stillClassified` after shrinking (a shrunk invalid payload must still break its rule).
import { validate, type Source } from '../../schemas/index.ts';
import { BOUNDED_CPU_FIELDS, cpuVerdict } from './cpu.ts';
import { sourceAllowed, type Mode } from './context.ts';
import { FIELD_RULES, GRAPH_RULE, IMMUTABLE_FIELDS, isSet, isTagRef, SOURCES, TRIGGER_SOURCES, valueAt } from './source-rules.ts';
import { isObject } from '../../schemas/is-object.ts';

export interface Classification {
  /** No rule broken and no reading-dependent value: the server must accept it. */
  valid: boolean;
  /** Rules the request breaks: the server must refuse it. */
  breaks: string[];
  /**
   * Rules whose verdict depends on a reading the spec leaves open (CPU bounds before or after
   * rounding): refusing and accepting both conform.
   */
  either: string[];
}

/** A PATCH's classification adds what it may do besides succeed or be refused. */
export interface PatchClassification extends Classification {
  /** Immutable fields it tries to change: refused, or accepted with the field unchanged (then not valid either). */
  immutable: string[];
}

const REQUIRED_CREATE_FIELDS = ['name', 'source', 'source_config', 'source_revision_config', 'secrets'] as const;

type Json = Record<string, unknown>;

function finish(breaks: string[], either: string[]): Classification {
  const b = [...new Set(breaks)];
  const e = [...new Set(either)].filter((id) => !b.includes(id));
  return { valid: b.length === 0 && e.length === 0, breaks: b, either: e };
}

/** CPU bounds of a resource_spec: `out` values break the rule, reading-dependent ones are `either`. */
function cpuRules(spec: unknown, rules: { request: string; limit: string }, breaks: string[], either: string[]): void {
  if (!isObject(spec)) return;
  for (const field of BOUNDED_CPU_FIELDS) {
    const value = spec[field];
    if (typeof value !== 'number') continue;
    const verdict = cpuVerdict(field, value);
    const id = field.endsWith('_limit') ? rules.limit : rules.request;
    if (verdict === 'out') breaks.push(id);
    if (verdict === 'either') either.push(id);
  }
}

/** Schema issues other than those classified on their own (missing fields, source, CPU values). */
function schemaBreaks(schema: 'DeploymentCreateRequest' | 'DeploymentPatchRequest', body: unknown, skip: (loc: (string | number)[]) => boolean): boolean {
  const result = validate(schema, body);
  return !result.ok && result.issues.some((issue) => !skip(issue.loc));
}

const isBoundedCpuLoc = (loc: (string | number)[]) =>
  loc.length === 3 && loc[0] === 'source_config' && loc[1] === 'resource_spec' && BOUNDED_CPU_FIELDS.includes(loc[2] as never);

/** Which rules a create body breaks on a control plane of `mode` (spec 2.1-2.4, 3, 4.1, 8). */
export function classifyCreate(payload: unknown, mode: Mode): Classification {
  const breaks: string[] = [];
  const either: string[] = [];
  if (!isObject(payload)) return finish(['CP-CREATE-008'], []);
  const missing = REQUIRED_CREATE_FIELDS.filter((f) => payload[f] === undefined);
  if (missing.length > 0) breaks.push('CP-CREATE-007');
  const source = payload.source;
  const knownSource = typeof source === 'string' && (SOURCES as readonly string[]).includes(source);
  const unknownSource = typeof source === 'string' && !knownSource;
  if (unknownSource) breaks.push('CP-SRC-007');
  const skip = (loc: (string | number)[]) =>
    (loc.length === 1 && missing.includes(loc[0] as never)) || (unknownSource && loc.length === 1 && loc[0] === 'source') || isBoundedCpuLoc(loc);
  if (schemaBreaks('DeploymentCreateRequest', payload, skip)) breaks.push('CP-CREATE-008');
  if (!knownSource) return finish(breaks, either);

  const s = source as Source;
  if (!sourceAllowed(mode, s)) breaks.push(mode === 'hosted' ? 'CP-SRC-002' : 'CP-SRC-004');
  for (const rule of FIELD_RULES) {
    if (isSet(valueAt(payload, rule.path)) && !rule.sources.includes(s)) breaks.push(rule.onCreate);
  }
  const revision = payload.source_revision_config;
  const graph = GRAPH_RULE[s];
  if (isObject(revision)) {
    if (graph.required !== isSet(revision.graph_config_path)) breaks.push(graph.requirement);
    // At creation no upload can exist yet for the deployment: every path is an arbitrary one.
    if (s === 'internal_source' && isSet(revision.source_tarball_path)) breaks.push('CP-TAR-001');
    if (s === 'gitforge' && isTagRef(revision.repo_ref) && valueAt(payload, ['source_config', 'build_on_push']) === true) breaks.push('CP-TAG-001');
  }
  if (s === 'external_container') cpuRules(valueAt(payload, ['source_config', 'resource_spec']), { request: 'CP-RES-002', limit: 'CP-RES-003' }, breaks, either);
  return finish(breaks, either);
}

/** What a PATCH is judged against: the deployment as it stands. */
export interface DeploymentView {
  name: string;
  source: Source;
  source_config: Json;
  source_revision_config: Json;
}

function differs(current: unknown, requested: unknown): boolean {
  return isSet(requested) && JSON.stringify(requested) !== JSON.stringify(current ?? null);
}

/**
 * Which rules a PATCH breaks on `deployment` (spec 2.1-2.4, 4.1, 7). Every source_tarball_path
 * it carries is taken as arbitrary: paths handed out by upload-url are the upload flow's business.
 */
export function classifyPatch(patch: unknown, deployment: DeploymentView, mode: Mode): PatchClassification {
  const breaks: string[] = [];
  const either: string[] = [];
  const immutable: string[] = [];
  if (!isObject(patch)) return { ...finish(['CP-ERR-003'], []), immutable };
  if (schemaBreaks('DeploymentPatchRequest', patch, isBoundedCpuLoc)) breaks.push('CP-ERR-003');

  for (const rule of IMMUTABLE_FIELDS) {
    if (differs(valueAt(deployment, rule.path), valueAt(patch, rule.path))) {
      // A field that does not apply to the source is not an immutable change but an invalid one.
      if ((rule.sources as readonly Source[]).includes(deployment.source)) immutable.push(rule.requirement);
      else if (rule.path[0] === 'source_config') breaks.push('CP-APPL-007');
    }
  }
  const revisionSource = (typeof patch.revision_source === 'string' ? patch.revision_source : deployment.source) as Source;
  if (typeof patch.revision_source === 'string' && (SOURCES as readonly string[]).includes(patch.revision_source) && !sourceAllowed(mode, revisionSource)) {
    breaks.push('CP-APPL-007');
  }
  for (const rule of FIELD_RULES) {
    if (rule.path[0] === 'source_revision_config' || rule.path[1] === 'resource_spec') continue;
    if (isSet(valueAt(patch, rule.path)) && !rule.sources.includes(deployment.source)) breaks.push('CP-APPL-007');
  }
  const revision = patch.source_revision_config;
  if (isObject(revision)) {
    if (isSet(revision.repo_ref) && revisionSource !== 'gitforge') breaks.push('CP-APPL-007');
    if (isSet(revision.graph_config_path) && !GRAPH_RULE[revisionSource].required) breaks.push('CP-APPL-007');
    if (isSet(revision.source_tarball_path)) breaks.push(revisionSource === 'internal_source' ? 'CP-TAR-002' : 'CP-APPL-007');
  }
  const spec = valueAt(patch, ['source_config', 'resource_spec']);
  if (isSet(spec)) {
    if (deployment.source !== 'external_container') breaks.push('CP-RES-008');
    else cpuRules(spec, { request: 'CP-RES-006', limit: 'CP-RES-006' }, breaks, either);
  }
  if (deployment.source === 'gitforge') {
    const ref = valueAt(patch, ['source_revision_config', 'repo_ref']) ?? deployment.source_revision_config.repo_ref;
    const requested = valueAt(patch, ['source_config', 'build_on_push']);
    const buildOnPush = isSet(requested) ? requested : deployment.source_config.build_on_push;
    if (isTagRef(ref) && buildOnPush === true) {
      breaks.push(isSet(requested) && requested === true && !isSet(valueAt(patch, ['source_revision_config', 'repo_ref'])) ? 'CP-TAG-004' : 'CP-TAG-003');
    }
  }
  const result = finish(breaks, either);
  return { ...result, valid: result.valid && immutable.length === 0, immutable };
}

/**
 * How many revisions a PATCH the server accepts creates (section 3): one when it supplies any
 * trigger (a non-null source_revision_config member, secrets, or a resource_spec), else none.
 */
export function expectedRevisionDelta(patch: unknown, deployment: Pick<DeploymentView, 'source'>): 0 | 1 {
  if (!isObject(patch)) return 0;
  const revision = patch.source_revision_config;
  if (isObject(revision) && ['repo_ref', 'graph_config_path', 'image_uri', 'source_tarball_path'].some((m) => isSet(revision[m]))) return 1;
  if (isSet(patch.secrets)) return 1;
  if (isSet(valueAt(patch, ['source_config', 'resource_spec'])) && TRIGGER_SOURCES.resource_spec.includes(deployment.source)) return 1;
  return 0;
}

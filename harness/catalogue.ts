// The requirements catalogue: the spec as data (requirements/*.yaml). One loader, one grammar;
// every error names the file, the entry and what was expected.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_SERVER_HOSTINGS } from '../schemas/target-profile.ts';
import { LEVELS, type Level } from '../schemas/vocabulary.ts';
import { ATTRIBUTION_FILE, readAttribution, type Attribution } from './attribution.ts';
import { closest } from './closest.ts';
import { foreignTenant, OPTIONAL_ENDPOINTS, SOURCE_KINDS, type InterfaceName, type TargetProfile } from './profile/profile.ts';
import { UsageError } from './usage-error.ts';
import { yaml } from './yaml.ts';
import { parseYamlOf } from './yaml-cache.ts';

export { LEVELS, type Level } from '../schemas/vocabulary.ts';

export interface Requirement {
  id: string;
  level: Level;
  interface: InterfaceName;
  section: string;
  statement: string;
  tags: string[];
  /** Capabilities the target must have for the rule to apply, e.g. `source:gitforge`. */
  needs: string[];
  /** Where the rule comes from when not the spec itself (e.g. `field-notes`). */
  source: 'spec' | 'field-notes';
  /** `required`: a certificate needs it judged, so not-applicable makes the run `incomplete`. */
  certificate?: 'required';
  /** Why the level is what it is, where the spec's wording allows more than one reading. */
  reading?: string;
}

/** Something the harness does not test, with the reason: mostly what the spec leaves "not shown". */
export interface Exclusion {
  /** The requirement this excludes from testing, when it is one. */
  id?: string;
  topic: string;
  section: string;
  reason: string;
}

export interface Catalogue {
  version: string;
  specVersion: string;
  /** sha256 of the catalogue files, so reports from different catalogues are never merged. */
  hash: string;
  requirements: Requirement[];
  exclusions: Exclusion[];
  /** Why each capability a requirement needs may be missing from a target (catalogue.yaml `gates:`). */
  gates: Record<string, string>;
  byId: Map<string, Requirement>;
  /** Which rule a refusal or an answer breaks, wherever a test meets it (attribution.yaml). */
  attribution?: Attribution;
}

export class CatalogueError extends UsageError {}

export const REQUIREMENTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'requirements');

const FILES: Record<InterfaceName, { file: string; prefix: string }> = {
  'control-plane': { file: 'control-plane.yaml', prefix: 'CP' },
  'agent-server': { file: 'agent-server.yaml', prefix: 'AS' },
  'experiment-upload': { file: 'experiment-upload.yaml', prefix: 'EU' },
};

const ID_PATTERN = /^(CP|AS|EU)-[A-Z]+(?:-[A-Z]+)*-\d{3}$/;
const SECTION_PATTERN = /^\d+(?:\.\d+)*$/;
const CAPABILITY_KINDS: Record<string, readonly string[]> = {
  mode: ['hosted', 'self-hosted'],
  hosting: AGENT_SERVER_HOSTINGS,
  source: SOURCE_KINDS,
  endpoint: OPTIONAL_ENDPOINTS,
  fixture: ['other-tenant', 'foreign-tenant', 'failing-image', 'failing-graph'],
};

function fail(file: string, where: string, expected: string, seen: unknown): never {
  throw new CatalogueError(`${file}: ${where}: expected ${expected}, found ${JSON.stringify(seen)}`);
}

function validCapability(text: string): boolean {
  const [kind, value] = text.split(':');
  return kind !== undefined && value !== undefined && (CAPABILITY_KINDS[kind]?.includes(value) ?? false);
}

interface CatalogueFile {
  file: string;
  requirements: unknown[];
  exclusions: unknown[];
}

/** The repository's own catalogue is parsed once per content (yaml-cache.ts); another folder's (a test's) every time. */
function parsed(dir: string, file: string, text: string): unknown {
  return dir === REQUIREMENTS_DIR ? parseYamlOf(file, text) : yaml().parse(text);
}

function readFile(dir: string, iface: InterfaceName, hash: ReturnType<typeof createHash>): CatalogueFile {
  const { file } = FILES[iface];
  const text = readFileSync(join(dir, file), 'utf8');
  hash.update(text);
  const doc = parsed(dir, file, text) as { requirements?: unknown; exclusions?: unknown };
  if (!doc || !Array.isArray(doc.requirements)) fail(file, 'top level', 'a `requirements:` list', doc);
  if (doc.exclusions !== undefined && !Array.isArray(doc.exclusions)) fail(file, 'exclusions', 'a list', doc.exclusions);
  return { file, requirements: doc.requirements, exclusions: (doc.exclusions as unknown[] | undefined) ?? [] };
}

function readRequirements(iface: InterfaceName, { file, requirements }: CatalogueFile): Requirement[] {
  const { prefix } = FILES[iface];
  return requirements.map((raw: unknown, index: number): Requirement => {
    const entry = (raw ?? {}) as Record<string, unknown>;
    const where = `entry ${index + 1}${typeof entry.id === 'string' ? ` (${entry.id})` : ''}`;
    const { id, level, section, statement } = entry;
    if (typeof id !== 'string' || !ID_PATTERN.test(id) || !id.startsWith(`${prefix}-`)) {
      fail(file, where, `an id like ${prefix}-FAMILY-001`, id);
    }
    if (!LEVELS.includes(level as Level)) fail(file, where, 'level MUST, SHOULD or MAY', level);
    if (typeof section !== 'string' || !SECTION_PATTERN.test(section)) fail(file, where, 'a section like "4.1" (quoted)', section);
    if (typeof statement !== 'string' || statement.trim().length < 10) fail(file, where, 'a one-sentence statement', statement);
    const tags = entry.tags ?? [];
    if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string')) fail(file, where, 'tags as a list of strings', tags);
    const needs = entry.needs ?? [];
    if (!Array.isArray(needs) || !needs.every((n) => typeof n === 'string' && validCapability(n))) {
      fail(file, where, `needs as a list of capabilities (${Object.keys(CAPABILITY_KINDS).map((k) => `${k}:…`).join(', ')})`, needs);
    }
    const source = entry.source ?? 'spec';
    if (source !== 'spec' && source !== 'field-notes') fail(file, where, 'source "spec" or "field-notes"', source);
    if (source === 'field-notes' && level !== 'MAY') fail(file, where, 'level MAY for a rule taken from the field notes', level);
    const certificate = entry.certificate;
    if (certificate !== undefined && (certificate !== 'required' || level !== 'MUST')) fail(file, where, 'certificate: required, on a MUST only', certificate);
    const reading = entry.reading;
    if (reading !== undefined && (typeof reading !== 'string' || reading.length < 10)) fail(file, where, 'a reading as a sentence', reading);
    return {
      id,
      level: level as Level,
      interface: iface,
      section,
      statement: statement.trim(),
      tags,
      needs,
      source,
      ...(certificate ? { certificate } : {}),
      ...(reading ? { reading } : {}),
    };
  });
}

function readExclusions({ file, exclusions }: CatalogueFile, byId: Map<string, Requirement>): Exclusion[] {
  return exclusions.map((raw: unknown, index: number): Exclusion => {
    const entry = (raw ?? {}) as Record<string, unknown>;
    const where = `exclusion ${index + 1}`;
    if (entry.id !== undefined && (typeof entry.id !== 'string' || !byId.has(entry.id))) fail(file, where, 'an id of the catalogue', entry.id);
    if (typeof entry.topic !== 'string' || entry.topic.length === 0) fail(file, where, 'a topic', entry.topic);
    if (typeof entry.section !== 'string' || !SECTION_PATTERN.test(entry.section)) fail(file, where, 'a section like "4.2"', entry.section);
    if (typeof entry.reason !== 'string' || entry.reason.length < 10) fail(file, where, 'a reason', entry.reason);
    return { ...(typeof entry.id === 'string' ? { id: entry.id } : {}), topic: entry.topic, section: entry.section, reason: entry.reason };
  });
}

/** The `gates:` of catalogue.yaml: a reason for every capability some requirement needs, and for no other. */
function readGates(raw: unknown = {}, requirements: Requirement[]): Record<string, string> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fail('catalogue.yaml', 'gates', 'a mapping from capability to the reason it may be missing', raw);
  const gates = raw as Record<string, unknown>;
  for (const [capability, reason] of Object.entries(gates)) {
    if (!validCapability(capability)) fail('catalogue.yaml', `gates.${capability}`, 'a capability', capability);
    if (typeof reason !== 'string' || reason.length < 20) fail('catalogue.yaml', `gates.${capability}`, 'a reason the spec makes it optional or leaves it unshown', reason);
  }
  for (const r of requirements) {
    const unexplained = r.needs.filter((n) => gates[n] === undefined);
    if (unexplained.length > 0) fail('catalogue.yaml', 'gates', `a reason for ${unexplained.join(', ')} (needed by ${r.id})`, undefined);
  }
  const used = new Set(requirements.flatMap((r) => r.needs));
  const unused = Object.keys(gates).filter((g) => !used.has(g));
  if (unused.length > 0) fail('catalogue.yaml', 'gates', 'reasons only for capabilities some requirement needs', unused);
  return gates as Record<string, string>;
}

const cache = new Map<string, Catalogue>();

export function loadCatalogue(dir: string = REQUIREMENTS_DIR): Catalogue {
  const cached = cache.get(dir);
  if (cached) return cached;
  const hash = createHash('sha256');
  const meta = parsed(dir, 'catalogue.yaml', readFileSync(join(dir, 'catalogue.yaml'), 'utf8')) as { version?: unknown; spec_version?: unknown; gates?: unknown };
  if (typeof meta?.version !== 'string') fail('catalogue.yaml', 'version', 'a version string', meta?.version);
  hash.update(JSON.stringify(meta));
  const files = (Object.keys(FILES) as InterfaceName[]).map((iface) => [iface, readFile(dir, iface, hash)] as const);
  const requirements = files.flatMap(([iface, file]) => readRequirements(iface, file));
  const byId = new Map<string, Requirement>();
  for (const r of requirements) {
    if (byId.has(r.id)) throw new CatalogueError(`${FILES[r.interface].file}: ${r.id} is defined twice`);
    byId.set(r.id, r);
  }
  const exclusions = files.flatMap(([, file]) => readExclusions(file, byId));
  const gates = readGates(meta.gates, requirements);
  // Attribution decides under which rule a failure is reported, so a change of it changes the hash too.
  const attributionPath = join(dir, ATTRIBUTION_FILE);
  const attributionText = existsSync(attributionPath) ? readFileSync(attributionPath, 'utf8') : undefined;
  if (attributionText !== undefined) hash.update(attributionText);
  const catalogue: Catalogue = {
    version: meta.version,
    specVersion: String(meta.spec_version ?? ''),
    hash: hash.digest('hex'),
    requirements,
    exclusions,
    gates,
    byId,
    // Parsed through the same cache as the requirements: each suite worker loads the catalogue to attribute its failures.
    attribution: readAttribution(attributionText === undefined ? undefined : parsed(dir, ATTRIBUTION_FILE, attributionText), byId),
  };
  cache.set(dir, catalogue);
  return catalogue;
}

/** Capabilities a profile gives, in the catalogue's `needs` grammar. */
export function capabilitiesOf(profile: TargetProfile): Set<string> {
  const caps = new Set<string>([`mode:${profile.controlPlaneMode}`, `hosting:${profile.agentServerHosting}`]);
  for (const s of profile.sources) caps.add(`source:${s}`);
  for (const e of profile.endpoints) caps.add(`endpoint:${e}`);
  if (profile.otherTenant) caps.add('fixture:other-tenant');
  if (foreignTenant(profile)) caps.add('fixture:foreign-tenant');
  if (profile.fixtures.failingImageUri) caps.add('fixture:failing-image');
  if (profile.fixtures.failingGraphId) caps.add('fixture:failing-graph');
  return caps;
}

export function missingCapabilities(requirement: Requirement, caps: Set<string>): string[] {
  return requirement.needs.filter((n) => !caps.has(n));
}

const FIXTURE_SETTINGS: Record<string, string> = {
  'other-tenant': 'a second tenant (otherTenant, --other-api-key)',
  'foreign-tenant':
    'a workspace the main key may not act for (foreignTenantId, or an otherTenant with a key of its own; a second workspace the main organization key acts for too is none)',
  'failing-image': 'fixtures.failingImageUri',
  'failing-graph': 'fixtures.failingGraphId',
};

/**
 * Why a requirement needing `needs` is not applicable, in the profile's words: the profile is
 * what the run knows, so a capability it does not name is "not declared", never "lacking".
 */
export function notApplicableReason(needs: string[]): string {
  return needs
    .map((need) => {
      const [kind, value] = need.split(':') as [string, string];
      switch (kind) {
        case 'mode':
          return `applies to a ${value} control plane; the profile declares controlPlaneMode ${value === 'hosted' ? 'self-hosted' : 'hosted'}`;
        case 'hosting':
          return value === 'platform'
            ? 'applies to a platform-hosted agent server (spec 5 requires authentication of platform-hosted deployments); the profile declares agentServerHosting self-run'
            : 'applies to a self-run agent server; the profile declares agentServerHosting platform';
        case 'source':
          return `source ${value} not declared in the profile (sources)`;
        case 'endpoint':
          return `endpoint ${value} not declared in the profile (endpoints)`;
        default:
          return `${FIXTURE_SETTINGS[value] ?? need} not declared in the profile`;
      }
    })
    .join('; ');
}

/**
 * The selection grammar of `--requirements` (README, `apc help certify`): a comma-separated list
 * of ids or glob patterns, case-insensitive. `*` is any run of characters, `?` one character,
 * `[1235]` one of those characters, `[1-5]` one of a range, `[!4]` any character but those.
 */
function patternsOf(patterns: string[]): string[] {
  return patterns.flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean);
}

export class SelectionError extends UsageError {}

function globRegex(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) throw new SelectionError(`--requirements: "${pattern}" opens a [ class that never closes; write e.g. CP-REVL-00[1235].`);
      const body = pattern.slice(i + 1, end);
      const negated = body.startsWith('!');
      const chars = (negated ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&');
      out += `[${negated ? '^' : ''}${chars}]`;
      i = end;
    } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 'i');
}

/** `CP-REV-*,AS-SSE-001` → a predicate on ids. An empty selection selects everything. */
export function selector(patterns: string[]): (id: string) => boolean {
  const list = patternsOf(patterns);
  if (list.length === 0) return () => true;
  const regexes = list.map(globRegex);
  return (id) => regexes.some((r) => r.test(id));
}

/** Every id or pattern must name something in the catalogue; otherwise a SelectionError lists the closest ids. */
export function checkSelection(patterns: string[], catalogue: Catalogue): void {
  const ids = catalogue.requirements.map((r) => r.id);
  const problems = patternsOf(patterns)
    .filter((p) => !ids.some(selector([p])))
    .map((p) => {
      const near = closest(p.replace(/[*?[\]!]/g, ''), ids, 3);
      return `"${p}" ${/[*?[]/.test(p) ? 'matches no requirement' : 'is not a requirement id'} of catalogue ${catalogue.version}${near.length ? `; closest: ${near.join(', ')}` : ''}.`;
    });
  if (problems.length > 0) {
    throw new SelectionError(`--requirements: ${problems.join(' ')} Patterns: * any characters, ? one character, [1235] one of these, [1-5] a range, [!4] any but these.`);
  }
}

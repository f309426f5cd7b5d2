// The schema of compliance.json (JSON Schema draft 2020-12, written with TypeBox): the one
// machine-readable result of `apc certify`. Every other report format is rendered from a
// document that validates against it. Bump `schemaVersion` on any incompatible change.
import { Type, type Static, type TInteger, type TObject, type TOptional, type TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { compileSchema } from './index.ts';
import { INTERFACES, LEVELS, STATUSES, VERDICTS, type InterfaceName, type Level, type RequirementStatus } from './vocabulary.ts';

const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

/** An object with one property per word of `words`, each of the given schema. */
const each = <K extends string, T extends TSchema>(words: readonly K[], schema: T): Record<K, T> =>
  Object.fromEntries(words.map((w) => [w, schema])) as Record<K, T>;

export const RequirementStatusSchema = literals(
  STATUSES,
  'passed: at least one check of it ran and held, and none failed. failed: a check of it found a violation. ' +
    'blocked: its tests stopped at another requirement\'s failed check before judging it (see blockedBy). ' +
    'skipped: excluded from testing or not judged (see reason). not-applicable: the target lacks a capability it needs (see needs). ' +
    'expected-failure: failed, and listed in the expected-failures baseline (see reason). ' +
    'blocked-by-expected-failure: blocked only by requirements the baseline lists (see blockedBy); no news, and not judged. ' +
    'untested: no conformance test names it.',
);
const InterfaceSchema = literals(INTERFACES, 'One of the three interfaces of the spec.');
const LevelSchema = literals(LEVELS, 'RFC 2119 level of a requirement.');

const CountsSchema: TObject<Record<RequirementStatus, TInteger>> = Type.Object(each(STATUSES, Type.Integer({ minimum: 0 })), {
  additionalProperties: false,
  description: 'Number of requirements per status.',
});

const perInterface = <T extends TSchema>(schema: T, description: string) =>
  Type.Object(each(INTERFACES, Type.Optional(schema)) as Record<InterfaceName, TOptional<T>>, { additionalProperties: false, description });

const CreatedSchema = Type.Object(
  {
    deployments: Type.Optional(Type.Integer({ minimum: 0, description: 'Accepted creates: on a real platform each is a database and a tracing project.' })),
    revisions: Type.Optional(Type.Integer({ minimum: 0, description: 'Revisions (a create makes one; so does a revision-creating PATCH): on a real platform each is a build.' })),
    assistants: Type.Optional(Type.Integer({ minimum: 0 })),
    threads: Type.Optional(Type.Integer({ minimum: 0 })),
    runs: Type.Optional(Type.Integer({ minimum: 0 })),
    uploads: Type.Optional(Type.Integer({ minimum: 0, description: 'Accepted experiment uploads.' })),
  },
  { additionalProperties: false, description: 'Resources per kind.' },
);

const CostSchema = Type.Object(
  {
    planned: perInterface(
      Type.Object(
        {
          creates: CreatedSchema,
          waitsInARow: Type.Integer({ minimum: 0, description: 'Revision waits one after another in the longest test; waits of different tests overlap.' }),
          tests: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
      'What the tests that ran create at most on a target that follows the spec (`apc certify --plan`), and what probing the target created before they were planned.',
    ),
    created: perInterface(CreatedSchema, 'What the run created (its tests, and its probes of the target), counted from the accepted requests.'),
  },
  { additionalProperties: false, description: 'The plan of the tests that ran beside what they created.' },
);

const FailureSchema = Type.Object(
  {
    requirements: Type.Array(Type.String(), { description: 'Requirement ids this failure breaks.' }),
    message: Type.String({ description: 'What went wrong, in a sentence.' }),
    expected: Type.Optional(Type.String({ description: 'What the spec requires, as text.' })),
    seen: Type.Optional(Type.String({ description: 'What the target did, as text.' })),
    input: Type.Optional(Type.String({ description: 'The shrunk generated input of a property, as JSON text.' })),
    seed: Type.Optional(Type.Integer({ description: 'fast-check seed of the failing property.' })),
    path: Type.Optional(Type.String({ description: "fast-check's replay path of the counterexample." })),
    repro: Type.String({ description: 'An `apc certify` command line that runs this check again with the same seed.' }),
    exchanges: Type.Array(
      Type.Object(
        {
          curl: Type.String({ description: 'The request as a curl line; the API key is a shell variable.' }),
          response: Type.String({ description: '`HTTP <status> <body>` or `no response: <reason>`.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The last HTTP exchanges of the failing check, oldest first.' },
    ),
    reliesOn: Type.Optional(
      Type.Array(Type.String(), {
        description: 'A check judged on a result set other rules make: those rules. When one failed, this failure is its echo and blocks instead of failing.',
      }),
    ),
    foundIn: Type.Optional(Type.String({ description: "Under a rule other than the test's own: the title of the test that met it." })),
  },
  { additionalProperties: false, description: 'One failure; every string is redacted.' },
);

const RequirementResultSchema = Type.Object(
  {
    id: Type.String({ pattern: '^(CP|AS|EU)-[A-Z]+(?:-[A-Z]+)*-\\d{3}$', description: 'Stable id, as in requirements/*.yaml.' }),
    level: LevelSchema,
    interface: InterfaceSchema,
    section: Type.String({ description: 'Section of the spec the rule comes from.' }),
    statement: Type.String({ description: 'The rule in one sentence.' }),
    status: RequirementStatusSchema,
    tests: Type.Array(Type.String(), { description: 'Titles of the conformance tests that checked it.' }),
    failures: Type.Array(FailureSchema),
    reason: Type.Optional(Type.String({ description: 'Why it was skipped, not applicable, or an expected failure.' })),
    needs: Type.Optional(Type.Array(Type.String(), { description: 'Capabilities it needed and the target lacked (e.g. source:gitforge).' })),
    blockedBy: Type.Optional(
      Type.Array(Type.String(), {
        description: 'For a blocked requirement: the root causes, failed requirements only (a chain through blocked ones is followed to its end).',
      }),
    ),
    alsoSeen: Type.Optional(
      Type.Array(
        Type.Object(
          { message: Type.String(), seen: Type.Optional(Type.String()) },
          { additionalProperties: false, description: 'One observation; every string is redacted.' },
        ),
        { description: 'For a blocked requirement: what its test saw that contradicts its statement before it stopped. Not judged.' },
      ),
    ),
    checks: Type.Object(
      { ran: Type.Integer({ minimum: 0 }), held: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false, description: 'Checks of this requirement that ran over all its tests, and how many held. Passed needs held > 0.' },
    ),
    cases: Type.Optional(
      Type.Object(
        { ran: Type.Integer({ minimum: 0 }), asked: Type.Integer({ minimum: 0 }) },
        { additionalProperties: false, description: 'Generated cases its properties ran, of the --runs asked per property ("N of M runs").' },
      ),
    ),
    seeds: Type.Optional(
      Type.Object(
        { ran: Type.Integer({ minimum: 1 }), caught: Type.Array(Type.Integer({ minimum: 0 })) },
        { additionalProperties: false, description: 'With --seeds N: the seeds its properties ran, and the indexes (0 = the run seed) in which one found a counterexample.' },
      ),
    ),
    certificateRequired: Type.Optional(Type.Boolean({ description: 'A certificate needs this MUST judged; not applicable makes the run incomplete.' })),
    keptRefusing: Type.Optional(
      Type.Boolean({ description: 'Skipped because the target kept throttling (429) or failing transiently (503) past timeouts.throttleMs: the run could not judge it.' }),
    ),
    consumers: Type.Optional(
      Type.Integer({ minimum: 1, description: 'How many Pact consumers (contracts/) rely on it, from the pact files `apc contracts matrix` reads.' }),
    ),
  },
  { additionalProperties: false },
);

// The profile snapshot mirrors harness/profile/profile.ts; it stays open so new settings do not break old readers.
const ProfileSchema = Type.Object(
  {
    urls: perInterface(Type.String(), 'Base URL per certified interface.'),
    apiKey: Type.Optional(Type.Literal('[redacted]')),
    tenantId: Type.Optional(Type.String()),
    otherTenant: Type.Optional(Type.Object({ apiKey: Type.Literal('[redacted]'), tenantId: Type.Optional(Type.String()) })),
    controlPlaneMode: literals(['hosted', 'self-hosted'] as const, 'Deployment mode of the control plane.'),
    sources: Type.Array(Type.String()),
    endpoints: Type.Array(Type.String()),
    vocabulary: Type.Record(Type.String(), Type.String()),
    fixtures: Type.Object({ graphId: Type.String() }),
    timeouts: Type.Object({ requestMs: Type.Integer(), streamMs: Type.Integer(), deployMs: Type.Integer(), statsMs: Type.Integer() }),
    pollIntervalMs: Type.Integer(),
    concurrency: Type.Integer(),
    redact: Type.Array(Type.Literal('[redacted]'), { description: 'Extra values redacted everywhere; only their count is kept.' }),
    runs: Type.Integer(),
    seed: Type.Integer(),
    keep: Type.Boolean(),
  },
  { description: 'The target profile the run used, with every secret replaced by "[redacted]".' },
);

const ReferenceInstanceSchema = Type.Object(
  {
    kind: literals(['process', 'container'] as const, 'process: in the harness process. container: a container of the image below.'),
    pid: Type.Optional(Type.Integer({ description: 'process: the process id.' })),
    node: Type.Optional(Type.String({ description: 'process: the Node.js version.' })),
    image: Type.Optional(Type.String({ description: 'container: the image name and tag.' })),
    imageId: Type.Optional(Type.String({ description: 'container: the image id (sha256:...).' })),
    database: literals(['memory', 'postgres'] as const, 'The reference implementation\'s storage.'),
    databaseImage: Type.Optional(Type.String({ description: 'postgres: the PostgreSQL image it ran in.' })),
  },
  { additionalProperties: false, description: 'Which reference implementation was certified: set when `reference` is true.' },
);

export const ComplianceReportSchema = Type.Object(
  {
    schemaVersion: Type.Literal(1, { description: 'Version of this schema.' }),
    harness: Type.Object({ name: Type.String(), version: Type.String() }, { additionalProperties: false }),
    catalogue: Type.Object(
      {
        version: Type.String(),
        specVersion: Type.String(),
        hash: Type.String({ description: 'sha256 of the requirement catalogue files; reports are merged only when equal.' }),
      },
      { additionalProperties: false },
    ),
    runId: Type.String({ description: 'Prefix of every resource the run created.' }),
    seed: Type.Integer({ description: 'Seed of every generated input; `--seed` reproduces the run.' }),
    shard: Type.Optional(
      Type.Object({ index: Type.Integer({ minimum: 1 }), count: Type.Integer({ minimum: 1 }) }, { additionalProperties: false, description: 'Set when the run was one slice of `--shard I/N`.' }),
    ),
    mergedFrom: Type.Optional(Type.Array(Type.String(), { description: 'Run ids of the reports `apc report merge` combined into this one.' })),
    replayOf: Type.Optional(Type.String({ description: 'Run id of the report whose failures `apc certify --replay` ran again.' })),
    target: Type.Object(
      {
        urls: perInterface(Type.String(), 'Base URL per certified interface.'),
        controlPlaneMode: Type.String(),
        reference: Type.Boolean({ description: 'True when the in-repo reference implementation was certified.' }),
        instance: Type.Optional(ReferenceInstanceSchema),
        faults: Type.Optional(
          Type.Array(Type.String(), { description: 'The reference implementation\'s fault switches that were on (--reference-fault); --replay turns them on again.' }),
        ),
        platformLike: Type.Optional(
          Type.Object(
            {
              behaviours: Type.Array(Type.String(), { description: 'The platform-like behaviours that were on (--reference-platform-like).' }),
              timeScale: Type.Number({ exclusiveMinimum: 0, description: 'Their time scale (--reference-time-scale).' }),
            },
            { additionalProperties: false, description: 'The reference implementation behaved as the real hosted platform does; --replay starts it so again.' },
          ),
        ),
        profile: ProfileSchema,
      },
      { additionalProperties: false },
    ),
    startedAt: Type.String({ format: 'date-time' }),
    endedAt: Type.String({ format: 'date-time' }),
    verdict: literals(
      VERDICTS,
      'certified: the whole catalogue of each certified interface ran, every MUST was judged and passed, no MUST required for a certificate was not applicable, nothing was blocked, and the run had no errors. ' +
        'passed: a subset (--requirements or one shard) ran and every judged MUST passed; a subset, not a certificate. ' +
        'no-regressions: no MUST failed or was blocked but as the expected-failures baseline expects, and no baseline entry passed; ' +
        'not a certificate (exit code 0). ' +
        'incomplete: nothing failed, but a MUST required for a certificate could not be judged (see verdictReason). ' +
        'not-certified: a MUST failed, was blocked, or has no test. error: the run itself could not run or had a problem ' +
        '(see errors). interrupted: the run was stopped by a signal; the report holds what ran until then.',
    ),
    verdictReason: Type.String(),
    counts: Type.Object(
      {
        total: CountsSchema,
        byLevel: Type.Object(each(LEVELS, CountsSchema) as Record<Level, typeof CountsSchema>, { additionalProperties: false }),
        byInterface: perInterface(CountsSchema, 'Counts per certified interface.'),
      },
      { additionalProperties: false },
    ),
    mustScore: Type.Object(
      { passed: Type.Integer({ minimum: 0 }), applicable: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false, description: 'Passed MUSTs out of the applicable ones (not skipped, not not-applicable).' },
    ),
    requirements: Type.Array(RequirementResultSchema),
    errors: Type.Array(Type.String(), { description: 'Problems of the run itself: a suite that did not load, a stale baseline entry.' }),
    transient: Type.Optional(
      perInterface(
        Type.Object(
          {
            throttled: Type.Integer({ minimum: 0, description: 'Answers 429 the run waited out and sent again (or gave up on).' }),
            unavailable: Type.Integer({ minimum: 0, description: 'Answers 503 (with Retry-After, or a bare one) the run waited out and sent again (or gave up on).' }),
            gaveUp: Type.Integer({ minimum: 0, description: 'Requests still refused when the run stopped waiting; their tests were skipped.' }),
            waitedMs: Type.Integer({ minimum: 0, description: 'Time spent waiting as Retry-After asked (or backing off).' }),
          },
          { additionalProperties: false },
        ),
        'Per interface: how often the target throttled or failed transiently, and how long the run waited. Absent when it never did.',
      ),
    ),
    learned: Type.Optional(
      Type.Object(
        {
          busyPatch: Type.Optional(
            Type.Object(
              { value: Type.Literal('refused'), how: Type.String({ description: 'The answer that showed it.' }) },
              { additionalProperties: false, description: 'The target refuses a revision-creating PATCH while a revision is in progress; the run waited for each revision to end before the next PATCH.' },
            ),
          ),
        },
        { additionalProperties: false, description: 'What the run found out about the target while it ran that its profile did not say (`apc init` writes it to a profile). Absent when nothing.' },
      ),
    ),
    cost: Type.Optional(CostSchema),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'urn:apc:schema:compliance-report:1',
    title: 'apc compliance report',
    description: 'The result of one `apc certify` run (or of `apc report merge`), written as compliance.json.',
    additionalProperties: false,
  },
);

/** compliance.json as the harness builds, writes and reads it. */
export type ComplianceReport = Static<typeof ComplianceReportSchema>;
export type RequirementResult = Static<typeof RequirementResultSchema>;
export type FailureRecord = Static<typeof FailureSchema>;
/** The target profile as a report keeps it: every secret replaced by "[redacted]". */
export type ReportedProfile = Static<typeof ProfileSchema>;
export type ReferenceInstance = Static<typeof ReferenceInstanceSchema>;

// Not in the API registry of schemas/index.ts: it describes the harness's own output, not a type
// of the spec, so it must not appear in the reference implementation's OpenAPI document.
let validate: ValidateFunction | undefined;

/** Problems of a document against the schema, as `/path: message` lines; empty when valid. */
export function complianceReportProblems(value: unknown): string[] {
  validate ??= compileSchema(ComplianceReportSchema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'}`);
}

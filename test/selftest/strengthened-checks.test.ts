// Checks strengthened because a generated mutant survived them (issue "Oracles that can fail"):
// each such mutant, certified on the rule whose test now changes the input that reveals it, fails
// that rule and only it; the reference passes the same rules (the other duty). Each certification
// is one rule of one interface, so the file takes seconds. Its certifications share one suite
// worker (as apc selftest's do): a worker of their own loaded node, vitest and the suites again
// for each of them.
import { describe, expect, test } from 'vitest';
import { editJson } from '../../harness/proxy/proxy.ts';
import { generatedMutants } from '../../harness/selftest/mutants/spec-derived/derive.ts';
import { runSubject, type RunSettings } from '../../harness/selftest/run-subject.ts';
import type { Mutant } from '../../harness/selftest/subjects.ts';
import { keptSuiteWorkers } from '../support/certify.ts';

const settings: RunSettings = { runs: 3, seed: 1, seeds: 1, detectionRuns: 3, timeoutMs: 120_000, batches: keptSuiteWorkers().suites };

/** A surviving mutant, and the requirement whose test now catches it. */
const STRENGTHENED: [mutant: string, requirement: string][] = [
  // The dataset an upload makes is checked for the uploaded dataset_description, not only its name.
  ['gen.post-api-v1-datasets-upload-experiment.ignored-input.dataset_description', 'EU-RESP-003'],
  // The secrets trigger's PATCH answer must list the secrets sent (the simplest deployment has none).
  ['gen.deployment.secrets.stale', 'CP-REV-006'],
  // tenant_id is checked in a second workspace too: one fixed tenant_id no longer passes.
  ['gen.deployment.tenant_id.swapped-identity', 'CP-TEN-004'],
  // The value PATCH of the revisions-listing test changes the image where the fixtures hold a second one.
  ['revisions-show-latest-values', 'CP-REVL-005'],
];

// Not a generated mutant: the review of tests whose inputs could not reveal their fault found
// CP-REVL-005's revisions all carrying the same values (the value PATCH repeated the fixtures).
const revisionsShowLatest: Mutant = {
  kind: 'mutant',
  id: 'revisions-show-latest-values',
  what: "The revisions listing shows every revision with the newest revision's source_revision_config.",
  interface: 'control-plane',
  family: 'listing',
  catches: ['CP-REVL-005'],
  proxy: () => ({
    answer: (request, answer) =>
      request.method === 'GET' && /\/revisions\/?(\?|$)/.test(request.path)
        ? editJson(answer, (json) => {
            const resources = Array.isArray(json.resources) ? (json.resources as Record<string, unknown>[]) : [];
            for (const r of resources) r.source_revision_config = structuredClone(resources[0]!.source_revision_config);
          })
        : answer,
  }),
};

const byId = new Map([...generatedMutants(), revisionsShowLatest].map((m) => [m.id, m]));

describe.each(STRENGTHENED)('%s', (id, requirement) => {
  test(`fails ${requirement}, and only it; the reference passes it`, async () => {
    const mutant = byId.get(id);
    expect(mutant, `${id} is no longer derived`).toBeDefined();
    const broken = await runSubject({ ...mutant!, scope: [requirement] } satisfies Mutant, settings);
    expect(broken.error).toBeUndefined();
    expect(broken.failed.map((f) => f.id)).toEqual([requirement]);
    const reference = await runSubject(
      { kind: 'variation', id: 'reference', what: 'the reference as it is', interface: mutant!.interface, scope: [requirement] },
      settings,
    );
    expect(reference.failed).toEqual([]);
    expect(reference.verdict).toBe('passed');
  }, 240_000);
});

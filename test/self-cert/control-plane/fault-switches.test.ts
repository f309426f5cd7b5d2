// Negative self-tests of the control-plane suites with the reference's fault switches: each
// switch breaks one rule, and certifying the broken reference must fail that rule, for that
// reason. Switches that do not get in each other's way share one run.
import { describe, test } from 'vitest';
import { expectFailed } from '../../support/report-expectations.ts';
import { certifyReference } from './support/certify-reference.ts';

describe('control-plane suites fail a reference with a fault switched on', () => {
  test('hosted: order, immutability, triggers, errors, auth, tenancy, delete, concurrency, tags, tarballs, graph path, sequences', async () => {
    const run = await certifyReference({
      mode: 'hosted',
      faults: [
        'cp.revisions-oldest-first',
        'cp.immutable-name-accepted',
        'cp.no-revision-on-secrets',
        'cp.not-found-plain-text',
        'cp.validation-as-400',
        'cp.no-auth',
        'cp.tenant-leak',
        'cp.delete-keeps',
        'cp.patch-lost-under-concurrency',
        'cp.tag-build-on-push-accepted',
        'cp.arbitrary-tarball-accepted',
        'cp.graph-config-path-optional',
      ],
      requirements: [
        'CP-REVL-002', 'CP-IMM-001', 'CP-REV-006', 'CP-ERR-001', 'CP-ERR-003', 'CP-AUTH-001', 'CP-AUTH-002', 'CP-TEN-001',
        'CP-DEL-002', 'CP-CONC-001', 'CP-TAG-001', 'CP-TAG-003', 'CP-TAG-004', 'CP-TAR-001', 'CP-TAR-002', 'CP-GRAPH-001',
        'CP-GRAPH-002', 'CP-SEQ-001',
      ],
    });
    expectFailed(run, {
      'CP-REVL-002': /not newest first/,
      'CP-IMM-001': /changed the immutable field name|name reads differently/,
      'CP-REV-006': /from 1 to 1 revision\(s\); expected exactly one more/,
      'CP-ERR-001': /has no \{"detail": <string>\} body|expected: \{"detail"/,
      'CP-ERR-003': /a schema violation is 422/,
      'CP-AUTH-001': /with no X-Api-Key answered 2\d\d; expected a 4xx refusal/,
      'CP-AUTH-002': /with an invalid X-Api-Key answered 2\d\d; expected a 4xx refusal/,
      'CP-TEN-001': /another workspace's credentials answered 200/,
      'CP-DEL-002': /the id of a deleted deployment answered 200/,
      'CP-CONC-001': /concurrent revision-creating PATCHes/,
      'CP-TAG-001': /is a tag and build_on_push is true answered 201/,
      'CP-TAG-003': /while build_on_push is true answered 200/,
      'CP-TAG-004': /enables build_on_push while repo_ref is the tag .* answered 200/,
      'CP-TAR-001': /was not handed out by upload-url answered 201/,
      'CP-TAR-002': /which no upload-url call handed out answered 200/,
      'CP-GRAPH-001': /graph_config_path is required for gitforge .* answered 201/,
      'CP-GRAPH-002': /graph_config_path is required for internal_source .* answered 201/,
      'CP-SEQ-001': /rule CP-/,
    });
  }, 300_000);

  test('self-hosted: CPU rounding, resource defaults, a revision stuck in BUILDING', async () => {
    const run = await certifyReference({
      mode: 'self-hosted',
      faults: ['cp.no-cpu-rounding', 'cp.no-resource-defaults', 'cp.revision-stuck'],
      requirements: ['CP-RES-005', 'CP-RES-DEF-*', 'CP-LIFE-001'],
    });
    const defaults = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`CP-RES-DEF-${String(i + 1).padStart(3, '0')}`, /was left out, so it should default to .* reports (nothing|null)/]),
    );
    expectFailed(run, {
      'CP-RES-005': /not reported rounded to one decimal place/,
      ...defaults,
      'CP-LIFE-001': /Timed out after \d+ ms waiting for revision .* to reach DEPLOYED/,
    });
  }, 300_000);
});

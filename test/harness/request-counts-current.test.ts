// The expected wall time a run prints multiplies the requests each test sent on the reference
// (harness/run/request-counts.json) by the target's latency. A requirement the table does not know
// adds nothing to the estimate, so a suite or catalogue change that outdates the table must be seen
// here, with the command that writes it again, not as a quietly short estimate.
import { expect, test } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.ts';
import { loadRequestTable } from '../../harness/run/expected-time.ts';

const REWRITE = 'write it again with `npx tsx scripts/request-counts.ts` on a quiet machine';

test('the request-count table covers every judged requirement of the catalogue and names no other', () => {
  const catalogue = loadCatalogue();
  const counted = new Set(Object.values(loadRequestTable().tests).flatMap((t) => t.requirements));
  // Excluded rules have no test (the catalogue says why); every other rule is judged by one.
  const excluded = new Set(catalogue.exclusions.flatMap((e) => (e.id ? [e.id] : [])));
  const judged = catalogue.requirements.map((r) => r.id).filter((id) => !excluded.has(id));
  expect(
    judged.filter((id) => !counted.has(id)),
    `requirements with no request count: ${REWRITE}`,
  ).toEqual([]);
  const known = new Set(catalogue.requirements.map((r) => r.id));
  expect(
    [...counted].filter((id) => !known.has(id)),
    `counted requirements the catalogue no longer has: ${REWRITE}`,
  ).toEqual([]);
});

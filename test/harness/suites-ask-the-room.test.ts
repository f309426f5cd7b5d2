// The budget is a room of its own (harness/budget/): a suite says what it needs (`t.needs`, the
// shared deployments of suites/control-plane/support/shared.ts, `byLimit` for a count) and never
// leases, pools, counts against the budget or asks whether one holds. Read from the sources, so
// a suite that starts doing so again fails here, and so does a façade that offers the means.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import * as facade from '../../harness/conformance/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

test('no suite file leases, pools or speaks of the budget', () => {
  const found = filesUnder(join(ROOT, 'suites')).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line, i) => ({ where: `${relative(ROOT, file)}:${i + 1}`, line }))
      .filter(({ line }) => /lease|pool|budget/.test(line)),
  );
  expect(found).toEqual([]);
});

test("the suites' façade offers what the room hands out, not the means of leasing or of asking whether a budget holds", () => {
  expect(Object.keys(facade)).toContain('byLimit');
  for (const name of ['budgeted', 'poolLease', 'leaseKeys', 'takeLeases']) expect(Object.keys(facade)).not.toContain(name);
});

// Writes the tables of each reference-impl/<interface>/faults.md from the fault-switch records in
// the faults.ts beside it: `npx tsx scripts/fault-tables.ts` after adding or changing a switch.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../harness/root.ts';
import { INTERFACES } from '../schemas/vocabulary.ts';
import { withTables } from '../reference-impl/fault-tables.ts';
import { FAULT_SWITCHES } from '../reference-impl/faults.ts';

for (const iface of INTERFACES) {
  const file = join(ROOT, 'reference-impl', iface, 'faults.md');
  const before = readFileSync(file, 'utf8');
  const after = withTables(before, FAULT_SWITCHES[iface]);
  if (after !== before) writeFileSync(file, after);
  console.log(`${file.slice(ROOT.length + 1)}: ${after === before ? 'up to date' : 'tables written'}`);
}

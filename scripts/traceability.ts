// `npm run traceability`: renders docs/traceability.md from requirements/traceability.yaml, after
// checking the map (every anchor mapped, every requirement traced); exit 1 with the problems.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalogue } from '../harness/catalogue.ts';
import { ROOT } from '../harness/root.ts';
import { traceabilityDocument, traceabilityProblems } from '../harness/traceability/map.ts';

const catalogue = loadCatalogue();
const problems = traceabilityProblems(catalogue);
if (problems.length > 0) {
  process.stderr.write(`requirements/traceability.yaml has ${problems.length} problem(s):\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}
writeFileSync(join(ROOT, 'docs', 'traceability.md'), traceabilityDocument(catalogue));
process.stdout.write('wrote docs/traceability.md\n');

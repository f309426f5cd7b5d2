// Every requirement of the catalogue is checked by a suite or excluded with a reason; every id
// a suite names exists. This is the test that keeps the spec, the suites and the report in step.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.ts';
import { INTERFACES } from '../../schemas/vocabulary.ts';
import { ROOT } from '../support/certify.ts';

const ID = /['"`]((?:CP|AS|EU)-[A-Z]+(?:-[A-Z]+)*-\d{3})['"`]/g;

function suiteIds(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const iface of INTERFACES) {
    const dir = join(ROOT, 'suites', iface);
    let files: string[];
    try {
      files = readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.ts'));
    } catch {
      continue;
    }
    for (const file of files) {
      for (const match of readFileSync(join(dir, file), 'utf8').matchAll(ID)) {
        found.set(match[1]!, [...(found.get(match[1]!) ?? []), `${iface}/${file}`]);
      }
    }
  }
  return found;
}

describe('catalogue coverage', () => {
  const catalogue = loadCatalogue();
  const covered = suiteIds();
  const excluded = new Set(catalogue.exclusions.flatMap((e) => (e.id ? [e.id] : [])));

  test('the catalogue covers all three interfaces', () => {
    for (const prefix of ['CP-', 'AS-', 'EU-']) {
      expect(catalogue.requirements.filter((r) => r.id.startsWith(prefix)).length, prefix).toBeGreaterThan(5);
    }
  });

  test('every requirement has a suite that checks it or an exclusion with a reason', () => {
    const untested = catalogue.requirements.filter((r) => !covered.has(r.id) && !excluded.has(r.id)).map((r) => `${r.id} (${r.section}): ${r.statement}`);
    expect(untested, `requirements with neither a suite nor an exclusion:\n${untested.join('\n')}`).toEqual([]);
  });

  test('every id a suite names is in the catalogue', () => {
    const unknown = [...covered.entries()].filter(([id]) => !catalogue.byId.has(id)).map(([id, files]) => `${id} in ${files.join(', ')}`);
    expect(unknown).toEqual([]);
  });

  test('an excluded requirement is not also claimed by a suite', () => {
    expect([...excluded].filter((id) => covered.has(id))).toEqual([]);
  });
});

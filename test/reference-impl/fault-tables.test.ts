// Each faults.md shows its interface's fault-switch records as they are: a switch added, changed
// or removed in faults.ts without `npx tsx scripts/fault-tables.ts` fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../../harness/root.ts';
import { faultSwitchMutants } from '../../harness/selftest/mutants/fault-switches.ts';
import { FAMILIES, INTERFACES } from '../../schemas/vocabulary.ts';
import { deviationTable, failsTable, withTables } from '../../reference-impl/fault-tables.ts';
import { ALL_FAULTS, FAULT_SWITCHES } from '../../reference-impl/faults.ts';
import { loadCatalogue } from '../../harness/catalogue.ts';

describe('fault-switch records', () => {
  test.each(INTERFACES)('%s/faults.md holds the tables rendered from its records', (iface) => {
    const markdown = readFileSync(join(ROOT, 'reference-impl', iface, 'faults.md'), 'utf8');
    expect(markdown).toContain(deviationTable(FAULT_SWITCHES[iface]));
    expect(markdown).toContain(failsTable(FAULT_SWITCHES[iface]));
    expect(withTables(markdown, FAULT_SWITCHES[iface])).toBe(markdown);
  });

  test('a changed record makes its faults.md stale', () => {
    const [first, ...rest] = FAULT_SWITCHES['control-plane'];
    const markdown = readFileSync(join(ROOT, 'reference-impl', 'control-plane', 'faults.md'), 'utf8');
    const changed = [{ ...first!, what: 'Something else.' }, ...rest];
    expect(withTables(markdown, changed)).not.toBe(markdown);
    expect(withTables(markdown, changed)).toContain(`| \`${first!.id}\` | Something else. |`);
  });

  test('every record has a unique id of its interface, a known family, and requirements of the catalogue', () => {
    const catalogue = loadCatalogue();
    expect(new Set(ALL_FAULTS).size).toBe(ALL_FAULTS.length);
    const prefix = { 'control-plane': 'cp.', 'agent-server': 'as.', 'experiment-upload': 'eu.' } as const;
    for (const iface of INTERFACES) {
      for (const s of FAULT_SWITCHES[iface]) {
        expect(s.id.startsWith(prefix[iface])).toBe(true);
        expect(FAMILIES).toContain(s.family);
        for (const id of s.fails?.requirements ?? []) expect(catalogue.byId.get(id)?.interface, `${s.id} fails ${id}`).toBe(iface);
      }
    }
  });

  test('the selftest makes one mutant of each switch that fails requirements, with its record', () => {
    const mutants = faultSwitchMutants();
    const failing = INTERFACES.flatMap((i) => FAULT_SWITCHES[i].filter((s) => s.fails));
    expect(mutants.map((m) => m.id)).toEqual(failing.map((s) => s.id));
    const noDataLine = mutants.find((m) => m.id === 'as.no-data-line')!;
    expect(noDataLine).toMatchObject({ interface: 'agent-server', family: 'sse', mode: 'hosted', catches: ['AS-SSE-002'], faults: ['as.no-data-line'] });
    expect(mutants.some((m) => m.id === 'as.stream-never-ends')).toBe(false);
  });
});

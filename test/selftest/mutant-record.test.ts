// One shape for every mutant: a fault switch of the reference and a proxy mutant are the same
// record (id, what, breaks, family, fails), and apc selftest makes the subject it certifies from
// either the same way (a switch on in the reference, or the record's rules in a proxy before it).
import { describe, expect, test } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.ts';
import { INTERFACES } from '../../harness/profile/profile.ts';
import { mutantOf, type ProxyMutant } from '../../harness/selftest/mutants/mutant-record.ts';
import { PROXY_MUTANTS } from '../../harness/selftest/mutants/proxy-mutants.ts';
import { FAMILIES } from '../../harness/selftest/subjects.ts';
import { FAULT_SWITCHES } from '../../reference-impl/faults.ts';

const catalogue = loadCatalogue();
const RECORD_KEYS = ['breaks', 'fails', 'family', 'id', 'what'];

describe.each(INTERFACES)('the %s mutants', (iface) => {
  test('every proxy mutant is a fault switch record with rules, failing requirements of its interface', () => {
    for (const record of PROXY_MUTANTS[iface]) {
      expect(Object.keys(record).sort(), record.id).toEqual([...RECORD_KEYS, 'rules'].sort());
      expect(record.what.length, record.id).toBeGreaterThan(10);
      expect(record.breaks.length, record.id).toBeGreaterThan(10);
      expect(FAMILIES).toContain(record.family);
      expect(record.fails.requirements.length, record.id).toBeGreaterThan(0);
      for (const id of record.fails.requirements) expect(catalogue.byId.get(id)?.interface, `${record.id} fails ${id}`).toBe(iface);
    }
  });

  test('every fault switch has the same record keys, without rules', () => {
    for (const record of FAULT_SWITCHES[iface])
      expect(
        Object.keys(record)
          .filter((k) => k !== 'fails')
          .sort(),
        record.id,
      ).toEqual(RECORD_KEYS.filter((k) => k !== 'fails'));
  });
});

test('a subject is made the same way from either: its mode and requirements from fails, its fault from a switch or from rules', () => {
  const rules: ProxyMutant['rules'] = () => ({});
  const common = { what: 'w', breaks: 'b', family: 'sse', fails: { mode: 'self-hosted', requirements: ['AS-SSE-001'] } } as const;
  expect(mutantOf('agent-server', { id: 'as.switch', ...common })).toEqual({
    kind: 'mutant',
    id: 'as.switch',
    what: 'w',
    interface: 'agent-server',
    mode: 'self-hosted',
    family: 'sse',
    catches: ['AS-SSE-001'],
    faults: ['as.switch'],
  });
  expect(mutantOf('agent-server', { id: 'as.proxy', ...common, rules })).toEqual({
    kind: 'mutant',
    id: 'as.proxy',
    what: 'w',
    interface: 'agent-server',
    mode: 'self-hosted',
    family: 'sse',
    catches: ['AS-SSE-001'],
    proxy: rules,
  });
});

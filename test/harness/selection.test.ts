// --requirements: the documented pattern grammar, and ids or patterns that name nothing.
import { describe, expect, test } from 'vitest';
import { checkSelection, loadCatalogue, selector, SelectionError } from '../../harness/catalogue.ts';

const catalogue = loadCatalogue();
const ids = catalogue.requirements.map((r) => r.id);
const picked = (...patterns: string[]) => ids.filter(selector(patterns));

describe('requirement selection', () => {
  test('globs: *, ?, [1235], [1-3], [!4], commas, any case', () => {
    expect(picked('CP-REVL-00[1235]')).toEqual(['CP-REVL-001', 'CP-REVL-002', 'CP-REVL-003', 'CP-REVL-005']);
    expect(picked('cp-revl-00[1-3]')).toEqual(['CP-REVL-001', 'CP-REVL-002', 'CP-REVL-003']);
    expect(picked('CP-READ-00?,AS-AUTH-*')).toEqual(expect.arrayContaining(['CP-READ-001', 'CP-READ-006', 'AS-AUTH-001', 'AS-AUTH-002']));
    expect(picked('CP-REVL-00[!4-9]')).toEqual(['CP-REVL-001', 'CP-REVL-002', 'CP-REVL-003']);
  });

  test('an id that is not in the catalogue is refused with the closest ids', () => {
    expect(() => checkSelection(['CP-READ-001,CP-RAED-002'], catalogue)).toThrow(SelectionError);
    expect(() => checkSelection(['CP-READ-001,CP-RAED-002'], catalogue)).toThrow(/"CP-RAED-002" is not a requirement id of catalogue .*; closest: CP-READ-002/);
  });

  test('a pattern that matches nothing is refused, naming the grammar', () => {
    expect(() => checkSelection(['CP-REVX-*'], catalogue)).toThrow(/"CP-REVX-\*" matches no requirement.*Patterns: \* any characters/);
    expect(() => checkSelection(['CP-REVL-00[12'], catalogue)).toThrow(/never closes/);
    expect(() => checkSelection(['CP-REVL-00[1235]', 'AS-*'], catalogue)).not.toThrow();
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Catalogue, Requirement } from '../../harness/catalogue.ts';
import { BaselineError, loadBaseline } from '../../harness/report/baseline.ts';
import { buildResults, countsOf, verdictOf, type TestOutcome } from '../../harness/report/compliance.ts';

const req = (id: string, level: Requirement['level'] = 'MUST'): Requirement => ({
  id,
  level,
  interface: 'control-plane',
  section: '3',
  statement: `Statement of ${id}.`,
  tags: [],
  needs: [],
  source: 'spec',
});

const catalogue = (reqs: Requirement[], excluded: string[] = []): Catalogue => ({
  version: '1.0.0',
  specVersion: '0.1.0',
  hash: 'h',
  requirements: reqs,
  exclusions: excluded.map((id) => ({ id, topic: id, section: '3', reason: 'cannot be observed over HTTP' })),
  byId: new Map(reqs.map((r) => [r.id, r])),
});

const outcome = (requirements: string[], state: TestOutcome['state'], extra: Partial<TestOutcome> = {}): TestOutcome => ({
  title: requirements.join(' '),
  file: 'suites/control-plane/x.suite.ts',
  requirements,
  state,
  failures: [],
  durationMs: 1,
  ...extra,
});

describe('requirement status and verdict', () => {
  const reqs = [req('CP-A-001'), req('CP-A-002'), req('CP-A-003'), req('CP-A-004'), req('CP-A-005', 'SHOULD'), req('CP-A-006')];
  const c = catalogue(reqs, ['CP-A-006']);

  test('statuses follow the tests that name each requirement', () => {
    const { requirements } = buildResults({
      catalogue: c,
      selected: reqs,
      errors: [],
      outcomes: [
        outcome(['CP-A-001'], 'passed'),
        outcome(['CP-A-001', 'CP-A-002'], 'failed', {
          failures: [{ requirements: ['CP-A-002'], message: 'boom', repro: 'apc certify', exchanges: [] }],
        }),
        outcome(['CP-A-003'], 'skipped', { notApplicable: ['source:gitforge'] }),
        outcome(['CP-A-005'], 'failed', { note: 'timed out' }),
      ],
    });
    const status = Object.fromEntries(requirements.map((r) => [r.id, r.status]));
    // The failure names only CP-A-002, so CP-A-001 keeps its pass.
    expect(status).toEqual({
      'CP-A-001': 'passed',
      'CP-A-002': 'failed',
      'CP-A-003': 'not-applicable',
      'CP-A-004': 'untested',
      'CP-A-005': 'failed',
      'CP-A-006': 'skipped',
    });
    expect(requirements.find((r) => r.id === 'CP-A-003')!.needs).toEqual(['source:gitforge']);
    expect(requirements.find((r) => r.id === 'CP-A-005')!.failures[0]!.message).toBe('timed out');
  });

  test('a requirement whose only test broke on another requirement is failed as not verified', () => {
    const { requirements } = buildResults({
      catalogue: c,
      selected: [reqs[1]!],
      errors: [],
      outcomes: [
        outcome(['CP-A-001', 'CP-A-002'], 'failed', {
          failures: [{ requirements: ['CP-A-001'], message: 'create answered nothing', repro: 'apc certify', exchanges: [] }],
        }),
      ],
    });
    expect(requirements[0]).toMatchObject({ id: 'CP-A-002', status: 'failed' });
    expect(requirements[0]!.failures[0]!.message).toBe('Not verified: the test stopped at a check of CP-A-001: create answered nothing');
    expect(verdictOf(requirements, []).verdict).toBe('not-certified');
  });

  test('a failed SHOULD does not fail the verdict; a failed or untested MUST does', () => {
    const should = buildResults({ catalogue: c, selected: [reqs[0]!, reqs[4]!], errors: [], outcomes: [outcome(['CP-A-001'], 'passed'), outcome(['CP-A-005'], 'failed')] });
    expect(verdictOf(should.requirements, []).verdict).toBe('certified');
    const must = buildResults({ catalogue: c, selected: [reqs[0]!], errors: [], outcomes: [outcome(['CP-A-001'], 'failed')] });
    expect(verdictOf(must.requirements, []).verdict).toBe('not-certified');
    const untested = buildResults({ catalogue: c, selected: [reqs[3]!], errors: [], outcomes: [] });
    expect(verdictOf(untested.requirements, []).verdict).toBe('not-certified');
    expect(verdictOf(must.requirements, ['suite failed to load']).verdict).toBe('error');
  });

  test('a baseline turns a listed failure into expected-failure and flags a listed pass as stale', () => {
    const baseline = { entries: new Map([['CP-A-001', 'known bug'], ['CP-A-002', 'fixed since']]) };
    const { requirements, errors } = buildResults({
      catalogue: c,
      selected: [reqs[0]!, reqs[1]!],
      errors: [],
      baseline,
      outcomes: [outcome(['CP-A-001'], 'failed'), outcome(['CP-A-002'], 'passed')],
    });
    expect(requirements[0]).toMatchObject({ status: 'expected-failure', reason: 'known bug' });
    expect(errors).toEqual([expect.stringContaining('CP-A-002 is listed in the expected-failures file but passed')]);
    expect(verdictOf(requirements, errors).verdict).toBe('error');
    expect(countsOf(requirements).total['expected-failure']).toBe(1);
  });
});

describe('expected-failures file', () => {
  const c = catalogue([req('CP-A-001'), req('CP-A-002')]);
  const file = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'apc-baseline-')), 'expected.yaml');
    writeFileSync(path, text);
    return path;
  };

  test('loads entries with their reasons', () => {
    const b = loadBaseline(file('expected-failures:\n  - id: CP-A-001\n    reason: tracked upstream\n'), c);
    expect([...b.entries]).toEqual([['CP-A-001', 'tracked upstream']]);
  });

  test.each([
    ['an unknown id', 'expected-failures:\n  - id: CP-A-001\n    reason: a\n  - id: CP-Z-999\n    reason: b\n', /:4: unknown requirement id CP-Z-999/],
    ['a missing reason', 'expected-failures:\n  - id: CP-A-001\n', /:2: CP-A-001 needs a `reason`/],
    ['an unknown key', 'expected-failures:\n  - id: CP-A-001\n    reason: x\n    owner: me\n', /:2: unknown key\(s\) owner/],
    ['a wrong top level', 'failures: []\n', /:1: expected a top-level `expected-failures:` list/],
    ['broken YAML', 'expected-failures:\n  - id: [\n', /not valid YAML/],
    ['a duplicate', 'expected-failures:\n  - id: CP-A-001\n    reason: x\n  - id: CP-A-001\n    reason: y\n', /:4: CP-A-001 is listed twice/],
  ])('%s is an error naming the line and what was expected', (_name, text, message) => {
    expect(() => loadBaseline(file(text), c)).toThrow(BaselineError);
    expect(() => loadBaseline(file(text), c)).toThrow(message);
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Catalogue, Requirement } from '../../harness/catalogue.ts';
import { BaselineError, loadBaseline } from '../../harness/report/baseline.ts';
import { buildResults, countsOf, exitCodeOf, universeOf, verdictOf, type TestOutcome } from '../../harness/report/compliance.ts';
import { scratchDir } from '../support/scratch.ts';

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
  gates: {},
  byId: new Map(reqs.map((r) => [r.id, r])),
});

/** A test outcome; a passed one ran one held check of each of its requirements unless `checks` says otherwise. */
const outcome = (requirements: string[], state: TestOutcome['state'], extra: Partial<TestOutcome> = {}): TestOutcome => ({
  title: requirements.join(' '),
  file: 'suites/control-plane/x.suite.ts',
  requirements,
  state,
  failures: [],
  checks: state === 'passed' ? Object.fromEntries(requirements.map((id) => [id, { ran: 1, held: 1 }])) : {},
  properties: [],
  durationMs: 1,
  ...extra,
});

const failure = (id: string, message = 'boom') => ({ requirements: [id], message, repro: 'apc certify', exchanges: [] });

describe('requirement status', () => {
  const reqs = [req('CP-A-001'), req('CP-A-002'), req('CP-A-003'), req('CP-A-004'), req('CP-A-005', 'SHOULD'), req('CP-A-006')];
  const c = catalogue(reqs, ['CP-A-006']);
  const statuses = (outcomes: TestOutcome[], selected = reqs) =>
    Object.fromEntries(buildResults({ catalogue: c, selected, errors: [], outcomes }).requirements.map((r) => [r.id, r.status]));

  test('statuses follow the checks of the tests that name each requirement', () => {
    const { requirements } = buildResults({
      catalogue: c,
      selected: reqs,
      errors: [],
      outcomes: [
        outcome(['CP-A-001'], 'passed'),
        outcome(['CP-A-001', 'CP-A-002'], 'failed', { failures: [failure('CP-A-002')] }),
        outcome(['CP-A-003'], 'skipped', { notApplicable: ['source:gitforge'] }),
        outcome(['CP-A-005'], 'failed', { note: 'timed out' }),
      ],
    });
    // The failure names only CP-A-002, so CP-A-001 keeps its pass.
    expect(Object.fromEntries(requirements.map((r) => [r.id, r.status]))).toEqual({
      'CP-A-001': 'passed',
      'CP-A-002': 'failed',
      'CP-A-003': 'not-applicable',
      'CP-A-004': 'untested',
      'CP-A-005': 'failed',
      'CP-A-006': 'skipped',
    });
    expect(requirements.find((r) => r.id === 'CP-A-003')!.needs).toEqual(['source:gitforge']);
    expect(requirements.find((r) => r.id === 'CP-A-005')!.failures[0]!.message).toBe('timed out');
    expect(requirements.find((r) => r.id === 'CP-A-001')!.checks).toEqual({ ran: 1, held: 1 });
  });

  test('a test that passed without a check of a requirement does not pass it', () => {
    const got = statuses([outcome(['CP-A-001', 'CP-A-002'], 'passed', { checks: { 'CP-A-001': { ran: 2, held: 2 } } })], reqs.slice(0, 2));
    expect(got).toEqual({ 'CP-A-001': 'passed', 'CP-A-002': 'skipped' });
  });

  test('checks that held in a failed test do not pass a requirement', () => {
    const got = statuses(
      [outcome(['CP-A-001', 'CP-A-002'], 'failed', { checks: { 'CP-A-001': { ran: 1, held: 1 }, 'CP-A-002': { ran: 1, held: 0 } }, failures: [failure('CP-A-002')] })],
      reqs.slice(0, 2),
    );
    expect(got).toEqual({ 'CP-A-001': 'blocked', 'CP-A-002': 'failed' });
  });

  test('a requirement whose test stopped at another requirement\'s failed check is blocked by it, not failed', () => {
    const { requirements } = buildResults({
      catalogue: c,
      selected: [reqs[1]!],
      errors: [],
      outcomes: [outcome(['CP-A-002'], 'failed', { failures: [failure('CP-A-001', 'create answered nothing')] })],
    });
    // The blocking failure stays with it: with --requirements the blocking requirement may not be in the report.
    expect(requirements[0]).toMatchObject({ id: 'CP-A-002', status: 'blocked', blockedBy: ['CP-A-001'], failures: [failure('CP-A-001', 'create answered nothing')] });
    expect(requirements[0]!.reason).toMatch(/CP-A-001: create answered nothing/);
    expect(countsOf(requirements).total).toMatchObject({ blocked: 1, failed: 0 });
  });

  test('a blocked requirement that another test passed is passed', () => {
    const got = statuses([outcome(['CP-A-002'], 'failed', { failures: [failure('CP-A-001')] }), outcome(['CP-A-002'], 'passed')], [reqs[1]!]);
    expect(got).toEqual({ 'CP-A-002': 'passed' });
  });

  test('a test that could not judge its requirement reports why', () => {
    const { requirements } = buildResults({
      catalogue: c,
      selected: [reqs[0]!, reqs[1]!],
      errors: [],
      outcomes: [
        outcome(['CP-A-001'], 'skipped', { notApplicable: ['fixture:other-tenant'], notJudged: 'the profile has no second tenant' }),
        outcome(['CP-A-002'], 'skipped', { notJudged: 'the target offers no experiment reads' }),
      ],
    });
    expect(requirements[0]).toMatchObject({ status: 'not-applicable', needs: ['fixture:other-tenant'], reason: 'the profile has no second tenant' });
    expect(requirements[1]).toMatchObject({ status: 'skipped', reason: 'the target offers no experiment reads' });
  });

  test('property cases are summed per requirement', () => {
    const { requirements } = buildResults({
      catalogue: c,
      selected: [reqs[0]!],
      errors: [],
      outcomes: [outcome(['CP-A-001'], 'passed', { properties: [{ ran: 5, planned: 5, asked: 25 }, { ran: 25, planned: 25, asked: 25 }] })],
    });
    expect(requirements[0]!.cases).toEqual({ ran: 30, asked: 50 });
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
    expect(verdictOf(requirements, errors, universeOf(c)).verdict).toBe('error');
    expect(countsOf(requirements).total['expected-failure']).toBe(1);
  });
});

describe('verdict', () => {
  const tenant = { ...req('CP-T-001'), needs: ['fixture:other-tenant'], certificate: 'required' as const };
  const reqs = [req('CP-A-001'), req('CP-A-002'), req('CP-A-003', 'SHOULD'), tenant, req('CP-X-001')];
  const c = catalogue(reqs, ['CP-X-001']);
  const all = [outcome(['CP-A-001'], 'passed'), outcome(['CP-A-002'], 'passed'), outcome(['CP-A-003'], 'passed'), outcome(['CP-T-001'], 'passed')];
  const verdict = (outcomes: TestOutcome[], selected = reqs, errors: string[] = []) => {
    const built = buildResults({ catalogue: c, selected, errors, outcomes });
    return verdictOf(built.requirements, built.errors, universeOf(c));
  };

  test('the whole catalogue judged and passed is certified; an excluded requirement does not count', () => {
    expect(verdict(all)).toMatchObject({ verdict: 'certified', mustScore: { passed: 3, applicable: 3 } });
  });

  test('a subset (--requirements or one shard) that passed is passed, not certified', () => {
    const v = verdict([outcome(['CP-A-001'], 'passed')], [reqs[0]!]);
    expect(v).toMatchObject({ verdict: 'passed', mustScore: { passed: 1, applicable: 1 } });
    expect(v.reason).toMatch(/a subset, not a certificate/);
    expect(exitCodeOf(v.verdict)).toBe(0);
  });

  test('MUST 0/0 is an error: nothing was judged', () => {
    const v = verdict([outcome(['CP-T-001'], 'skipped', { notApplicable: ['fixture:other-tenant'] })], [tenant]);
    expect(v).toMatchObject({ verdict: 'error', mustScore: { passed: 0, applicable: 0 } });
    expect(exitCodeOf(v.verdict)).toBe(2);
  });

  test('a certificate-required MUST not applicable makes the run incomplete, saying what to add', () => {
    const v = verdict([...all.slice(0, 3), outcome(['CP-T-001'], 'skipped', { notApplicable: ['fixture:other-tenant'] })]);
    expect(v.verdict).toBe('incomplete');
    expect(v.reason).toMatch(/otherTenant/);
    expect(exitCodeOf(v.verdict)).toBe(1);
  });

  test('a MUST not applicable because the profile left out a source kind the mode has makes the run incomplete; a kind the mode lacks does not', () => {
    const kind = { ...req('CP-K-001'), needs: ['source:internal_source'] };
    const withKind = catalogue([...reqs, kind], ['CP-X-001']);
    const judged = (omittedRequired: string[]) => {
      const built = buildResults({ catalogue: withKind, selected: [...reqs, kind], errors: [], outcomes: [...all, outcome(['CP-K-001'], 'skipped', { notApplicable: ['source:internal_source'] })], omittedRequired });
      return verdictOf(built.requirements, built.errors, universeOf(withKind));
    };
    const v = judged(['source:internal_source']);
    expect(v.verdict).toBe('incomplete');
    expect(v.reason).toMatch(/CP-K-001.*list each in the profile's `sources:`/s);
    expect(judged([]).verdict).toBe('certified');
  });

  test('a MUST its tests did not judge makes the run incomplete', () => {
    const v = verdict([all[0]!, outcome(['CP-A-002'], 'skipped', { notJudged: 'no experiment reads' }), ...all.slice(2)]);
    expect(v).toMatchObject({ verdict: 'incomplete' });
  });

  test('a failed SHOULD does not fail the verdict; a failed, blocked or untested MUST does', () => {
    expect(verdict([...all.slice(0, 2), outcome(['CP-A-003'], 'failed'), all[3]!]).verdict).toBe('certified');
    expect(verdict([outcome(['CP-A-001'], 'failed'), ...all.slice(1)]).verdict).toBe('not-certified');
    const blocked = verdict([outcome(['CP-A-001'], 'failed', { failures: [failure('CP-A-003')] }), ...all.slice(1)]);
    expect(blocked).toMatchObject({ verdict: 'not-certified', mustScore: { passed: 2, applicable: 2 } });
    expect(verdict(all.slice(1)).verdict).toBe('not-certified');
    expect(verdict(all, reqs, ['suite failed to load']).verdict).toBe('error');
  });

  test('a failure lists the blocked MUSTs apart from the failed ones', () => {
    const v = verdict([outcome(['CP-A-001'], 'failed', { failures: [failure('CP-A-001')] }), outcome(['CP-A-002'], 'failed', { failures: [failure('CP-A-001')] }), ...all.slice(2)]);
    expect(v.reason).toBe('1 MUST requirement(s) failed: CP-A-001. 1 more blocked by them: CP-A-002.');
    expect(v.mustScore).toEqual({ passed: 1, applicable: 2 });
  });
});

describe('a baseline and what its failures block', () => {
  const reqs = [req('CP-B-001'), req('CP-B-002'), req('CP-B-003'), req('CP-B-004')];
  const c = catalogue(reqs);
  // One test of three requirements stops at CP-B-002's check; CP-B-004 has its own test.
  const listing = outcome(['CP-B-001', 'CP-B-002', 'CP-B-003'], 'failed', { failures: [failure('CP-B-002', 'not newest first')] });
  const run = (entries: [string, string][], outcomes: TestOutcome[], selected = reqs) => {
    const built = buildResults({ catalogue: c, selected, errors: [], outcomes, baseline: { entries: new Map(entries) } });
    const verdict = verdictOf(built.requirements, built.errors, universeOf(c));
    return { ...built, verdict, status: Object.fromEntries(built.requirements.map((r) => [r.id, r.status])) };
  };

  test('a requirement blocked only by listed failures is blocked-by-expected-failure, and the run exits 0, not certified', () => {
    const r = run([['CP-B-002', 'oldest first, tracked']], [listing, outcome(['CP-B-004'], 'passed')]);
    expect(r.status).toEqual({ 'CP-B-001': 'blocked-by-expected-failure', 'CP-B-002': 'expected-failure', 'CP-B-003': 'blocked-by-expected-failure', 'CP-B-004': 'passed' });
    expect(r.requirements[0]).toMatchObject({ blockedBy: ['CP-B-002'], reason: expect.stringContaining('expected failure of CP-B-002 (oldest first, tracked)') });
    expect(r.verdict.verdict).toBe('no-regressions');
    expect(r.verdict.reason).toBe('No new failure: 1 MUST requirement(s) fail as the baseline expects (CP-B-002) and 2 more are blocked by them (CP-B-001, CP-B-003); not a certificate.');
    expect(r.verdict.mustScore).toEqual({ passed: 1, applicable: 2 });
    expect(exitCodeOf(r.verdict.verdict)).toBe(0);
    expect(countsOf(r.requirements).total).toMatchObject({ 'expected-failure': 1, 'blocked-by-expected-failure': 2, blocked: 0, failed: 0 });
  });

  test('without the baseline the same run is not certified; with a subset it is still no regressions, not passed', () => {
    const built = buildResults({ catalogue: c, selected: reqs, errors: [], outcomes: [listing, outcome(['CP-B-004'], 'passed')] });
    expect(verdictOf(built.requirements, built.errors, universeOf(c)).verdict).toBe('not-certified');
    const subset = run([['CP-B-002', 'tracked']], [listing], reqs.slice(0, 3));
    expect(subset.verdict.verdict).toBe('no-regressions');
    expect(subset.verdict.reason).toMatch(/^No new failure in a subset of the catalogue of control-plane: /);
  });

  test('a new failure fails the run, and what it blocks is blocked, not excused', () => {
    const both = outcome(['CP-B-001', 'CP-B-002', 'CP-B-003'], 'failed', { failures: [failure('CP-B-002'), failure('CP-B-004')] });
    const r = run([['CP-B-002', 'tracked']], [both, outcome(['CP-B-004'], 'failed', { failures: [failure('CP-B-004')] })]);
    expect(r.status).toMatchObject({ 'CP-B-001': 'blocked', 'CP-B-003': 'blocked', 'CP-B-004': 'failed' });
    expect(r.verdict.verdict).toBe('not-certified');
    expect(exitCodeOf(r.verdict.verdict)).toBe(1);
  });

  test('a baseline may name a blocked requirement: its reason is kept, and it is stale once it is judged and passes', () => {
    const named = run([['CP-B-002', 'tracked'], ['CP-B-001', 'waits for the ordering fix']], [listing, outcome(['CP-B-004'], 'passed')]);
    expect(named.requirements[0]).toMatchObject({ status: 'blocked-by-expected-failure', reason: 'waits for the ordering fix' });
    expect(named.verdict.verdict).toBe('no-regressions');
    const fixed = run([['CP-B-001', 'waits for the ordering fix']], [outcome(['CP-B-001', 'CP-B-002', 'CP-B-003'], 'passed'), outcome(['CP-B-004'], 'passed')]);
    expect(fixed.errors).toEqual(['CP-B-001 is listed in the expected-failures file but passed: remove it from the baseline (stale entry).']);
    expect(fixed.verdict.verdict).toBe('error');
  });

  test('the full catalogue with every failure expected is no regressions, never certified', () => {
    const r = run([['CP-B-002', 'tracked']], [outcome(['CP-B-001', 'CP-B-003'], 'passed'), outcome(['CP-B-002'], 'failed', { failures: [failure('CP-B-002')] }), outcome(['CP-B-004'], 'passed')]);
    expect(r.verdict.verdict).toBe('no-regressions');
  });
});

describe('expected-failures file', () => {
  const c = catalogue([req('CP-A-001'), req('CP-A-002')]);
  const file = (text: string) => {
    const path = join(scratchDir('baseline'), 'expected.yaml');
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

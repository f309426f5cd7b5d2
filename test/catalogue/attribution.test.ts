// requirements/attribution.yaml: read and checked with the catalogue (every id one of its rules),
// and the answers it maps to the rules they break.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadCatalogue, REQUIREMENTS_DIR } from '../../harness/catalogue.ts';
import { refusalOf, valuesOutside } from '../../harness/attribution.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import { scratchDir } from '../support/scratch.ts';

const exchange = (method: string, path: string, body: unknown, status: number, json?: unknown): Exchange => ({
  interface: 'agent-server',
  request: { method, url: `http://target${path}`, headers: {}, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) },
  response: { status, headers: {}, text: JSON.stringify(json ?? {}), json },
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: 1,
});

test('the catalogue carries the attribution, each entry naming one of its rules', () => {
  const { attribution, byId } = loadCatalogue();
  expect(attribution!.refusals.length + attribution!.values.length).toBeGreaterThan(0);
  for (const entry of [...attribution!.refusals, ...attribution!.values]) expect(byId.has(entry.requirement), entry.requirement).toBe(true);
});

test("an attribution naming a rule the catalogue lacks fails the catalogue's load", () => {
  const dir = scratchDir('attribution');
  cpSync(REQUIREMENTS_DIR, dir, { recursive: true });
  writeFileSync(
    join(dir, 'attribution.yaml'),
    'refusals:\n  - requirement: AS-SSE-999\n    what: a run with a string stream_mode was refused\n    request: POST /runs/stream$\n    statuses: [400]\n    body: { stream_mode: string }\n',
  );
  expect(() => loadCatalogue(dir)).toThrow(/attribution.yaml: refusals entry 1: expected a requirement id of the catalogue, found "AS-SSE-999"/);
});

test("a 4xx for a run whose stream_mode is a string is AS-SSE-006's; a list's is AS-SSE-007's; a 5xx or a success is no one's", () => {
  const { attribution } = loadCatalogue();
  const run = (mode: unknown, status: number, path = '/threads/t1/runs/stream') =>
    refusalOf(attribution!, exchange('POST', path, { assistant_id: 'a', input: {}, stream_mode: mode }, status));
  expect(run('updates', 400)?.requirement).toBe('AS-SSE-006');
  expect(run('updates', 422, '/runs/stream')?.requirement).toBe('AS-SSE-006');
  expect(run(['updates'], 422)?.requirement).toBe('AS-SSE-007');
  expect(run('updates', 500)).toBeUndefined();
  // A 404 says something else is missing (an assistant, a thread): not the form's refusal.
  expect(run('updates', 404)).toBeUndefined();
  expect(run('updates', 200)).toBeUndefined();
  expect(refusalOf(attribution!, exchange('POST', '/assistants/search', { stream_mode: 'updates' }, 400))).toBeUndefined();
});

test("a revision status outside the revision statuses is CP-REVL-009's, read alone or in a list", () => {
  const { attribution } = loadCatalogue();
  const one = exchange('GET', '/v2/deployments/d/revisions/r', undefined, 200, { id: 'r', status: 'BUILD_ERROR' });
  expect(valuesOutside(attribution!, one)).toEqual([expect.objectContaining({ requirement: 'CP-REVL-009', value: 'BUILD_ERROR' })]);
  const list = exchange('GET', '/v2/deployments/d/revisions', undefined, 200, { resources: [{ status: 'DEPLOYED' }, { status: 'DEPLOY_ERROR' }] });
  expect(valuesOutside(attribution!, list).map((v) => v.value)).toEqual(['DEPLOY_ERROR']);
  expect(valuesOutside(attribution!, exchange('GET', '/v2/deployments/d/revisions/r', undefined, 200, { status: 'BUILD_FAILED' }))).toEqual([]);
});

test("a step's valid create refused 422 is its source's rule (a tag's create CP-TAG-002's), only in place of CP-CREATE-001; a rule's own check keeps its failure", () => {
  const { attribution } = loadCatalogue();
  const create = (body: unknown, relied: string | undefined, status = 422) => refusalOf(attribution!, exchange('POST', '/v2/deployments', body, status), relied)?.requirement;
  expect(create({ source: 'gitforge', source_revision_config: { repo_ref: 'main' } }, 'CP-CREATE-001')).toBe('CP-SRC-001');
  expect(create({ source: 'gitforge', source_revision_config: { repo_ref: 'refs/tags/v1' } }, 'CP-CREATE-001')).toBe('CP-TAG-002');
  expect(create({ source: 'external_container' }, 'CP-CREATE-001')).toBe('CP-SRC-003');
  expect(create({ source: 'internal_container' }, 'CP-CREATE-001')).toBe('CP-SRC-005');
  expect(create({ source: 'internal_source' }, 'CP-CREATE-001')).toBe('CP-SRC-006');
  // CPU bounds refused on an external_container create: CP-RES-004's own check, not the source's.
  expect(create({ source: 'external_container' }, 'CP-RES-004')).toBeUndefined();
  expect(create({ source: 'external_container' }, undefined)).toBeUndefined();
  expect(create({ source: 'gitforge' }, 'CP-CREATE-001', 404)).toBeUndefined();
  expect(create({ source: 'gitforge' }, 'CP-CREATE-001', 201)).toBeUndefined();
});

test('a body field is matched by kind, =value or ~pattern; anything else fails the load', () => {
  const dir = scratchDir('attribution-values');
  cpSync(REQUIREMENTS_DIR, dir, { recursive: true });
  writeFileSync(
    join(dir, 'attribution.yaml'),
    'refusals:\n  - requirement: CP-SRC-001\n    what: a gitforge create was refused\n    request: POST /v2/deployments$\n    statuses: [422]\n    body: { source: gitforge }\n',
  );
  expect(() => loadCatalogue(dir)).toThrow(/refusals entry 1, body.source: expected string or list, =value or ~pattern, found "gitforge"/);
});

test("the catalogue's hash covers attribution.yaml: moving a refusal to another rule changes it", () => {
  const dir = scratchDir('attribution-hash');
  cpSync(REQUIREMENTS_DIR, dir, { recursive: true });
  const before = loadCatalogue(dir).hash;
  const changed = scratchDir('attribution-hash-changed');
  cpSync(REQUIREMENTS_DIR, changed, { recursive: true });
  const text = readFileSync(join(changed, 'attribution.yaml'), 'utf8');
  writeFileSync(join(changed, 'attribution.yaml'), text.replace('requirement: AS-SSE-006', 'requirement: AS-RUN-001'));
  expect(readFileSync(join(changed, 'attribution.yaml'), 'utf8')).not.toBe(text);
  expect(loadCatalogue(changed).hash).not.toBe(before);
  expect(loadCatalogue(dir).hash).toBe(loadCatalogue().hash);
});

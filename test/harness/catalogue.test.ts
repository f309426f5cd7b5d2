import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CatalogueError, capabilitiesOf, loadCatalogue, selector } from '../../harness/catalogue.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';
import { scratchDir } from '../support/scratch.ts';

const GITFORGE_GATE = 'The spec does not require a target to offer every source kind.';

function catalogueDir(files: Partial<Record<string, string>>): string {
  const dir = scratchDir('cat');
  const all = {
    'catalogue.yaml': `version: 9.9.9\nspec_version: 0.1.0\ngates:\n  source:gitforge: "${GITFORGE_GATE}"\n`,
    'control-plane.yaml': 'requirements: []\n',
    'agent-server.yaml': 'requirements: []\n',
    'experiment-upload.yaml': 'requirements: []\n',
    ...files,
  };
  for (const [name, text] of Object.entries(all)) writeFileSync(join(dir, name), text!);
  return dir;
}

const good = `requirements:
  - id: CP-REV-001
    level: MUST
    section: "3"
    statement: Creating a deployment creates its first revision.
    tags: [revisions]
    needs: [source:gitforge]
exclusions:
  - topic: Deployment status transitions
    section: "3"
    reason: The spec lists the statuses but shows no transitions.
`;

describe('requirements catalogue', () => {
  test('the project catalogue loads, with unique ids and a hash', () => {
    const c = loadCatalogue();
    expect(c.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(c.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(c.requirements.map((r) => r.id)).size).toBe(c.requirements.length);
  });

  test('a well-formed file loads with its needs and exclusions', () => {
    const c = loadCatalogue(catalogueDir({ 'control-plane.yaml': good }));
    expect(c.requirements[0]).toMatchObject({ id: 'CP-REV-001', level: 'MUST', interface: 'control-plane', needs: ['source:gitforge'] });
    expect(c.exclusions).toHaveLength(1);
    expect(c.gates).toEqual({ 'source:gitforge': GITFORGE_GATE });
  });

  test('a capability needed without a reason in gates, or a reason for a capability nothing needs, is refused', () => {
    const withGates = (gates: string) => ({ 'catalogue.yaml': `version: 9.9.9\nspec_version: 0.1.0\n${gates}` });
    expect(() => loadCatalogue(catalogueDir({ ...withGates('gates: {}\n'), 'control-plane.yaml': good }))).toThrow(/gates: expected a reason for source:gitforge \(needed by CP-REV-001\)/);
    expect(() => loadCatalogue(catalogueDir(withGates(`gates:\n  endpoint:listeners: "${GITFORGE_GATE}"\n`)))).toThrow(/reasons only for capabilities some requirement needs/);
  });

  test('every capability the project catalogue needs says why the spec lets a target lack it', () => {
    const c = loadCatalogue();
    for (const r of c.requirements) for (const need of r.needs) expect(c.gates[need], `${r.id} needs ${need}`).toMatch(/spec|field notes/i);
    // The spec's own endpoints are never gated: an absent one fails its rule.
    expect(c.requirements.filter((r) => r.needs.some((n) => /^endpoint:(docs|upload-url|integrations)$/.test(n))).map((r) => r.id)).toEqual([]);
  });

  test.each([
    ['a bad id', good.replace('CP-REV-001', 'REV-1'), /control-plane\.yaml: entry 1.*expected an id like CP-FAMILY-001/],
    ['an id of another interface', good.replace('CP-REV-001', 'AS-REV-001'), /expected an id like CP-/],
    ['a bad level', good.replace('MUST', 'MUSTN'), /expected level MUST, SHOULD or MAY/],
    ['an unquoted or bad section', good.replace('"3"', 'three'), /expected a section like "4.1"/],
    ['an unknown capability', good.replace('source:gitforge', 'source:svn'), /expected needs as a list of capabilities/],
    ['a field-notes rule above MAY', good.replace('    needs:', '    source: field-notes\n    needs:'), /expected level MAY for a rule taken from the field notes/],
    ['an exclusion without a reason', good.replace('    reason: The spec lists the statuses but shows no transitions.\n', ''), /exclusion 1: expected a reason/],
    [
      'a duplicate id',
      good.replace('exclusions:', '  - id: CP-REV-001\n    level: MAY\n    section: "3"\n    statement: Another statement about revisions.\nexclusions:'),
      /CP-REV-001 is defined twice/,
    ],
  ])('%s is refused with the file and entry named', (_name, text, message) => {
    expect(() => loadCatalogue(catalogueDir({ 'control-plane.yaml': text }))).toThrow(CatalogueError);
    expect(() => loadCatalogue(catalogueDir({ 'control-plane.yaml': text }))).toThrow(message);
  });

  test('selection by ids and globs', () => {
    const pick = selector(['CP-REV-*,AS-SSE-001', ' EU-*']);
    expect(pick('CP-REV-003')).toBe(true);
    expect(pick('AS-SSE-001')).toBe(true);
    expect(pick('AS-SSE-002')).toBe(false);
    expect(pick('EU-WIN-001')).toBe(true);
    expect(pick('CP-IMM-001')).toBe(false);
    expect(selector([])('anything')).toBe(true);
  });

  test('capabilities follow the profile', () => {
    const p = defaultProfile();
    p.otherTenant = { apiKey: 'x-12345' };
    const caps = capabilitiesOf(p);
    expect(caps.has('mode:hosted')).toBe(true);
    expect(caps.has('source:gitforge')).toBe(true);
    expect(caps.has('source:external_container')).toBe(false);
    expect(caps.has('fixture:other-tenant')).toBe(true);
    expect(caps.has('fixture:failing-image')).toBe(false);
  });
});

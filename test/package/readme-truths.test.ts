// What the README tells a newcomer, held to the files it describes (issue: a newcomer's first
// hour): the bench peer's pinned versions, the Dockerfile's base-image argument for a machine without
// a registry, the bench's --out and --help, an Allure report opened served, and commands that need
// no tool beyond Node, the project and Docker.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BENCH_OPTIONS } from '../../bench/options.ts';
import { ROOT } from '../../harness/root.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const shellBlocks = [...README.matchAll(/```(?:sh|bash|console)\n([^]*?)```/g)].map((m) => m[1]!);

describe('the README', () => {
  test('lists the bench peer versions bench/peer/package.json pins, each exact', () => {
    const peer = JSON.parse(readFileSync(join(ROOT, 'bench', 'peer', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const paragraph = /`bench\/peer\/package\.json` pins a set[^]*?\n\n/.exec(README)?.[0];
    expect(paragraph, 'the README names the pinned set').toBeDefined();
    // Up to the note on the registry's odd newest tag, which names a version that must not be pinned.
    const listed = Object.fromEntries([...paragraph!.split('(The registry')[0]!.matchAll(/`(@[\w-]+\/[\w-]+)`\s+(\d+\.\d+\.\d+)/g)].map((m) => [m[1], m[2]]));
    expect(listed).toEqual(peer.dependencies);
    for (const [name, version] of Object.entries(peer.dependencies)) expect(version, name).toMatch(/^\d+\.\d+\.\d+$/);
  });

  test('builds the image without a registry with the build argument the Dockerfile declares', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const arg = /^ARG (\w+)=/m.exec(dockerfile)?.[1];
    expect(arg).toBe('BASE_IMAGE');
    expect(README).toMatch(new RegExp(`docker build --build-arg ${arg}=\\S+ -t apc \\.`));
  });

  test('shows where the bench writes (--out) and how to list its options (--help)', () => {
    const bench = shellBlocks.join('\n').split('\n').filter((line) => line.startsWith('npm run bench -- '));
    for (const option of ['out', 'help']) {
      expect(Object.keys(BENCH_OPTIONS)).toContain(option);
      expect(bench.some((line) => line.includes(`--${option}`)), `--${option}`).toBe(true);
    }
  });

  test('says to open the Allure report served, since opened as a file it is a blank page', () => {
    expect(README).toMatch(/allure-results\/`[^\n]*open it served[^\n]*npx allure open/);
  });

  test('its commands need no tool beyond Node, the project and Docker (no uuidgen)', () => {
    for (const block of shellBlocks) expect(block).not.toMatch(/\buuidgen\b/);
  });
});

// What the README and the guides in docs/ tell a newcomer, held to the files and the CLI they
// describe (issue: a README a user reads in ten minutes): every shell command of the README is run
// (readme-commands.test.ts) or listed with why it is only parsed (readme-commands.ts), and a parsed
// one names only flags its command knows; links point at files and headings that exist; the
// profile example lists every setting and is one the CLI accepts; the LangGraph JS server's pinned versions,
// the Dockerfile's base-image argument, the bench's --out and --help, an Allure report opened
// served; and commands that need no tool beyond Node, the project and Docker.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { BENCH_OPTIONS } from '../../bench/options.ts';
import { ROOT } from '../../harness/root.ts';
import { compileSchema } from '../../schemas/index.ts';
import { TargetProfileFileSchema } from '../../schemas/target-profile.ts';
import { README_COMMANDS, isRun, shellCommands } from './readme-commands.ts';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const README = read('README.md');
/** The guides docs/ holds (the generated matrices and the spec's folder aside, which no person writes). */
const GUIDES = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md') && !name.endsWith('-latest.md') && name !== 'traceability.md')
  .map((name) => `docs/${name}`);
const shellBlocks = (text: string) => [...text.matchAll(/```(?:sh|bash|console)\n([^]*?)```/g)].map((m) => m[1]!);
const pkg = JSON.parse(read('package.json')) as { name: string; version: string; scripts: Record<string, string>; bin: Record<string, string> };

/** GitHub's anchor of a heading: lower case, punctuation but hyphens dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const anchorsOf = (markdown: string) => new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!.trim())));

describe('the README', () => {
  test('is read in ten minutes: at most 300 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(300);
  });

  test('shows only commands a test runs or lists with the reason it is only parsed', () => {
    const shown = shellCommands(README);
    expect(shown.filter((command) => !(command in README_COMMANDS))).toEqual([]);
    expect(
      Object.keys(README_COMMANDS).filter((command) => !shown.includes(command)),
      'listed, no longer in the README',
    ).toEqual([]);
    for (const [command, way] of Object.entries(README_COMMANDS)) if (!isRun(way)) expect(way.parsed.length, command).toBeGreaterThan(10);
  });

  test('keeps the quick start: npm ci && npm run certify, npm ci && npm test', () => {
    expect(README).toMatch(/```sh\nnpm ci && npm run certify\s.*\nnpm ci && npm test\s/);
    expect(pkg.scripts.certify).toBe('node bin/apc.mjs certify');
    expect(pkg.bin.apc).toBe('bin/apc.mjs');
  });

  test("names, in the commands it only parses, npm scripts that exist, the packed file's name and flags their apc command knows", async () => {
    const parsed = Object.entries(README_COMMANDS)
      .filter(([, way]) => !isRun(way))
      .map(([command]) => command);
    for (const command of parsed) {
      const script = /^npm run (\S+)/.exec(command)?.[1];
      if (script) expect(Object.keys(pkg.scripts), command).toContain(script);
      const packed = /(\S+)\.tgz$/.exec(command)?.[1];
      if (packed) expect(packed.split('/').at(-1)).toBe(`${pkg.name}-${pkg.version}`);
    }
    const apcCommands = parsed.filter((command) => command.startsWith('npx apc '));
    const names = [...new Set(apcCommands.map((command) => command.split(' ')[2]!))];
    const help = Object.fromEntries(
      await Promise.all(names.map(async (name) => [name, (await promisify(execFile)('node', ['bin/apc.mjs', 'help', name], { cwd: ROOT })).stdout] as const)),
    );
    for (const command of apcCommands) {
      for (const flag of command.match(/(?<=\s)--[a-z][\w-]*/g) ?? []) {
        expect(help[command.split(' ')[2]!], `${command}: ${flag}`).toMatch(new RegExp(`${flag}\\b(?!-)`));
      }
    }
  });

  test('gives the API key through the environment, never as --api-key (a command line shows in ps)', () => {
    for (const file of ['README.md', ...GUIDES]) for (const command of shellCommands(read(file))) expect(command, file).not.toMatch(/--(other-)?api-key\b/);
    expect(README).toMatch(/export APC_API_KEY=/);
  });
});

describe('the README and the guides in docs/', () => {
  test('link to files and headings that exist', () => {
    for (const file of ['README.md', 'ARCHITECTURE.md', ...GUIDES]) {
      // Fenced blocks hold examples (a badge line for the user's own README), not links.
      const text = read(file).replace(/```[^]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const linked = path ? join(dirname(file), path) : file;
        expect(existsSync(join(ROOT, linked)), `${file} → ${target}`).toBe(true);
        if (anchor && linked.endsWith('.md')) expect([...anchorsOf(read(linked))], `${file} → ${target}`).toContain(anchor);
      }
    }
  });

  test('name files that exist (ARCHITECTURE.md names those of harness/ from its rooms)', () => {
    for (const file of ['README.md', 'ARCHITECTURE.md', ...GUIDES]) {
      for (const [, path] of read(file)
        .replace(/```[^]*?```/g, '')
        .matchAll(/`((?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)+\.(?:ts|mjs|md|json|yaml|sh))`/g)) {
        const bases = ['.', dirname(file), 'harness'];
        expect(
          bases.some((base) => existsSync(join(ROOT, base, path!))),
          `${file} names ${path}`,
        ).toBe(true);
      }
    }
  });

  test('list every profile setting, in a profile the CLI accepts', () => {
    const example = /```yaml\n(# target\.yaml\n[^]*?)```/.exec(read('docs/target-profile.md'))?.[1];
    expect(example, 'docs/target-profile.md shows a whole profile').toBeDefined();
    const check = compileSchema(TargetProfileFileSchema);
    expect(check(parse(example!)), JSON.stringify(check.errors)).toBe(true);
    for (const key of Object.keys(TargetProfileFileSchema.properties)) expect(example, key).toMatch(new RegExp(`\\b${key}:`));
  });

  test('list the versions of the LangGraph JS server test/langgraph-js/server/package.json pins, each exact', () => {
    const peer = JSON.parse(read('test/langgraph-js/server/package.json')) as { dependencies: Record<string, string> };
    const paragraph = /`test\/langgraph-js\/server\/package\.json` pins a set[^]*?\n\n/.exec(read('docs/performance.md'))?.[0];
    expect(paragraph, 'docs/performance.md names the pinned set').toBeDefined();
    // Up to the note on the registry's odd newest tag, which names a version that must not be pinned.
    const listed = Object.fromEntries([...paragraph!.split('(The registry')[0]!.matchAll(/`(@[\w-]+\/[\w-]+)`\s+(\d+\.\d+\.\d+)/g)].map((m) => [m[1], m[2]]));
    expect(listed).toEqual(peer.dependencies);
    for (const [name, version] of Object.entries(peer.dependencies)) expect(version, name).toMatch(/^\d+\.\d+\.\d+$/);
  });

  test('build the image without a registry with the build argument the Dockerfile declares', () => {
    const arg = /^ARG (\w+)=/m.exec(read('Dockerfile'))?.[1];
    expect(arg).toBe('BASE_IMAGE');
    expect(read('docs/reference-and-containers.md')).toMatch(new RegExp(`docker build --build-arg ${arg}=\\S+ -t apc \\.`));
  });

  test('show where the bench writes (--out) and how to list its options (--help)', () => {
    const bench = shellBlocks(read('docs/performance.md'))
      .join('\n')
      .split('\n')
      .filter((line) => line.startsWith('npm run bench -- '));
    for (const option of ['out', 'help']) {
      expect(Object.keys(BENCH_OPTIONS)).toContain(option);
      expect(
        bench.some((line) => line.includes(`--${option}`)),
        `--${option}`,
      ).toBe(true);
    }
  });

  test('say to open the Allure report served, since opened as a file it is a blank page', () => {
    expect(read('docs/reports.md')).toMatch(/open it served, `npx allure open/);
  });

  test('run apc as npx apc, since a clone does not put apc on the PATH', () => {
    for (const file of ['README.md', ...GUIDES])
      for (const command of shellCommands(read(file))) expect(command, file).not.toMatch(/^(?:\S+=\S+ |nohup )*apc /);
  });

  test('use commands that need no tool beyond Node, the project and Docker (no uuidgen)', () => {
    for (const text of [README, ...GUIDES.map(read)]) for (const block of shellBlocks(text)) expect(block).not.toMatch(/\buuidgen\b/);
  });
});

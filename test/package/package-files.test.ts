// What `npm pack` puts in the package that teams install as a development dependency: what the
// CLI needs at run time (the spec, the catalogue, the schemas, the suites, the reference), and
// no tests or benchmarks. .ci/run installs the packed package and certifies with it
// (scripts/packed-install.sh); this checks its contents quickly.
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../../harness/root.ts';

interface PackEntry {
  size: number;
  files: { path: string }[];
}

describe('the npm package', () => {
  const [entry] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
  ) as PackEntry[];
  const paths = entry!.files.map((f) => f.path);

  test('holds the CLI, the spec, the catalogue, the schemas, the suites and the reference', () => {
    for (const path of ['bin/apc.mjs', 'harness/cli/main.ts', 'docs/spec/interfaces.md', 'requirements/catalogue.yaml', 'schemas/control-plane.ts', 'reference-impl/index.ts', 'package.json', 'README.md']) {
      expect(paths).toContain(path);
    }
    for (const iface of ['control-plane', 'agent-server', 'experiment-upload']) {
      expect(paths.some((p) => p.startsWith(`suites/${iface}/`) && p.endsWith('.suite.ts'))).toBe(true);
      expect(paths).toContain(`requirements/${iface}.yaml`);
    }
  });

  test('leaves out tests, benchmarks, contracts and scripts', () => {
    const stray = paths.filter((p) => /^(test|bench|contracts|scripts|reports)\//.test(p) || /\.test\.ts$/.test(p));
    expect(stray).toEqual([]);
  });

  test('stays lean (the README states its size)', () => {
    expect(entry!.size).toBeLessThan(650_000);
  });
});

// `npm ci` warns EBADENGINE when an installed package's `engines.node` excludes the running Node.
// The README and package.json's engines promise Node 20.19+, 22.13+ and 24+: every package the
// lockfile installs must accept the first release of each line the promise covers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../../harness/root.ts';

const SUPPORTED = ['20.19.0', '22.13.0', '24.0.0'];

type Version = [number, number, number];
const parse = (text: string): Version => {
  const [major = 0, minor = 0, patch = 0] = text.replace(/^v/, '').split('.').map(Number);
  return [major, minor, patch];
};
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** One comparator of an npm range (`>=22`, `^20.19.0`, `20`, `<9`, `*`); undefined for syntax this does not read. */
function satisfiesOne(version: Version, comparator: string): boolean | undefined {
  const match = /^(>=|<=|>|<|\^|~|=)?\s*v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(comparator);
  if (comparator === '*' || comparator === '') return true;
  if (!match) return undefined;
  const [, op = '', major, minor, patch] = match;
  const wild = (part: string | undefined) => part === undefined || part === 'x' || part === '*';
  const bound: Version = [Number(major), wild(minor) ? 0 : Number(minor), wild(patch) ? 0 : Number(patch)];
  const c = compare(version, bound);
  switch (op) {
    case '>=': return c >= 0;
    case '>': return c > 0;
    case '<=': return c <= 0;
    case '<': return c < 0;
    case '^': return c >= 0 && version[0] === bound[0];
    case '~': return c >= 0 && version[0] === bound[0] && version[1] === bound[1];
    default:
      // `20` or `20.9`: that line.
      return version[0] === bound[0] && (wild(minor) || version[1] === bound[1]) && (wild(patch) || version[2] === bound[2]);
  }
}

function satisfies(version: string, range: string): boolean | undefined {
  const results = range.split('||').map((alternative) => {
    const parts = alternative.trim().replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1').split(/\s+/);
    const each = parts.map((p) => satisfiesOne(parse(version), p));
    return each.includes(undefined) ? undefined : each.every(Boolean);
  });
  if (results.includes(true)) return true;
  return results.includes(undefined) ? undefined : false;
}

describe('package engines', () => {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; optional?: boolean; engines?: { node?: string } | string[] }>;
  };
  // Optional packages (platform binaries) are skipped by npm where they do not fit.
  const installed = Object.entries(lock.packages).filter(([path, p]) => path !== '' && !p.optional && !Array.isArray(p.engines) && p.engines?.node);

  test('the range reader reads the forms the lockfile uses', () => {
    expect(satisfies('20.19.0', '>=22')).toBe(false);
    expect(satisfies('22.12.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies('20.19.0', '18 || 20 || >=22')).toBe(true);
    expect(satisfies('21.0.0', '18 || 20 || >=22')).toBe(false);
    expect(satisfies('24.0.0', '>= 0.6')).toBe(true);
    expect(satisfies('20.19.0', '10.* || >= 12.*')).toBe(true);
  });

  test.each(SUPPORTED)('package.json engines accept Node %s', (version) => {
    const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(satisfies(version, own.engines.node)).toBe(true);
  });

  test.each(SUPPORTED)('every package installed accepts Node %s (no EBADENGINE warning)', (version) => {
    const refusing = installed
      .filter(([, p]) => satisfies(version, (p.engines as { node: string }).node) !== true)
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')}@${p.version} engines.node "${(p.engines as { node: string }).node}"`);
    expect(refusing).toEqual([]);
  });
});

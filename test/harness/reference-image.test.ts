// The product image is reused while its sources stay the same: the hash in its tag changes with
// any file the build reads, and with nothing else.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { sourceHash } from '../../harness/reference/reference-image.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'apc-hash-'));
  writeFileSync(join(root, 'Dockerfile'), 'FROM base\n');
  writeFileSync(join(root, '.dockerignore'), '*\n!harness\n!node_modules\n');
  mkdirSync(join(root, 'harness'));
  writeFileSync(join(root, 'harness', 'a.ts'), 'one');
  mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(root, 'node_modules', '.package-lock.json'), '{"v":1}');
  writeFileSync(join(root, 'node_modules', 'dep', 'index.js'), 'x');
  writeFileSync(join(root, 'README.md'), 'docs');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

test('the hash is stable, and ignores files the build does not read', () => {
  const before = sourceHash(root, 'sha256:base');
  expect(sourceHash(root, 'sha256:base')).toBe(before);
  writeFileSync(join(root, 'README.md'), 'other docs');
  // Installed packages count by npm's record of them, not file by file.
  writeFileSync(join(root, 'node_modules', 'dep', 'index.js'), 'y');
  expect(sourceHash(root, 'sha256:base')).toBe(before);
});

test('a changed or added source, a changed lockfile record, Dockerfile or base image changes the hash', () => {
  const before = sourceHash(root, 'sha256:base');
  expect(sourceHash(root, 'sha256:other-base')).not.toBe(before);
  const changes = [
    () => writeFileSync(join(root, 'harness', 'a.ts'), 'two'),
    () => writeFileSync(join(root, 'harness', 'b.ts'), 'new'),
    () => writeFileSync(join(root, 'node_modules', '.package-lock.json'), '{"v":2}'),
    () => writeFileSync(join(root, 'Dockerfile'), 'FROM base\nUSER node\n'),
  ];
  let previous = before;
  for (const change of changes) {
    change();
    const next = sourceHash(root, 'sha256:base');
    expect(next).not.toBe(previous);
    previous = next;
  }
});

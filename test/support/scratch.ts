// Temporary folders for tests, removed when the test that made one ends (or, made outside a
// test, when its file ends): npm test leaves nothing behind in the system's temporary folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/** A new empty folder named `apc-<hint>-XXXXXX` in the temporary folder, removed afterwards. */
export function scratchDir(hint: string): string {
  const dir = mkdtempSync(join(tmpdir(), `apc-${hint}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    // Not inside a test (a file's top level or a describe block): the file's end removes it.
    afterAll(remove);
  }
  return dir;
}

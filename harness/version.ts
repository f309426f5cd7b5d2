// The harness's version, as package.json gives it: printed by the CLI and written into every report.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './root.ts';

let cached: string | undefined;

export function harnessVersion(): string {
  cached ??= (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}

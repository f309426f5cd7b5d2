// The repository's root folder: requirements, suites and the default reports folder are found
// from here. A module of its own, so that finding it loads nothing else.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

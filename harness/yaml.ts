// The yaml package, loaded when a YAML text is read rather than on import: a run whose catalogue
// comes from yaml-cache.ts and that reads no profile file or baseline never loads it (a few
// hundredths of a second of each start, in the certifying process and in each suite worker).
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

export function yaml(): typeof import('yaml') {
  return requireHere('yaml') as typeof import('yaml');
}

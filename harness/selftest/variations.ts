// Valid variations: the reference behind a proxy that answers as the spec allows but the
// reference does not. The harness must certify each.
import type { Variation } from './subjects.ts';

export function variations(): Variation[] {
  return [];
}

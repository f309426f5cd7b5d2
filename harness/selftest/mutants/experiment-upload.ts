// Proxy mutants of the experiment-upload: rules the fault switches do not break, each broken by a
// rewriting proxy in front of the reference.
import type { Mutant } from '../subjects.ts';

export function experimentUploadMutants(): Mutant[] {
  return [];
}

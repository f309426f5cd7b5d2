// Which generated mutants a selftest run certifies: all, or a sample picked by the run's seed.
import { isGenerated, type Subject } from '../../subjects.ts';

/** Generated mutants a run certifies unless --generated says otherwise: a sample that keeps `npm test` short. */
export const QUICK_GENERATED = 6;

/** The subjects with at most `size` generated mutants, picked by `seed` (the same seed, the same sample). */
export function sampleGenerated(subjects: Subject[], size: number, seed: number): Subject[] {
  const generated = subjects.filter(isGenerated);
  if (generated.length <= size) return subjects;
  // A small linear congruential generator: the sample must not depend on Math.random.
  let state = seed >>> 0;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0);
  const picked = new Set(generated.map((s) => ({ s, key: next() })).sort((a, b) => a.key - b.key).slice(0, size).map(({ s }) => s.id));
  return subjects.filter((s) => !isGenerated(s) || picked.has(s.id));
}

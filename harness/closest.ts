// "Did you mean …?" for mistyped profile keys and requirement ids: the known words nearest to
// what was typed, by edit distance (case-insensitive).

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/**
 * Up to `count` of `known` nearest to `typed`, nearest first: plausible typos (at most a third of
 * the length changed) and words that begin with what was typed.
 */
export function closest(typed: string, known: Iterable<string>, count = 3): string[] {
  const t = typed.toLowerCase();
  const limit = Math.max(2, Math.ceil(t.length / 3));
  return [...known]
    .map((word) => ({ word, d: distance(t, word.toLowerCase()) }))
    .filter(({ word, d }) => d <= limit || word.toLowerCase().startsWith(t))
    .sort((a, b) => a.d - b.d || a.word.localeCompare(b.word))
    .slice(0, count)
    .map(({ word }) => word);
}

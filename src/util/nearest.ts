/** "Did you mean …?" for a misspelled name: the closest candidate by edit distance. */

/** Levenshtein distance with adjacent swaps counting one (`contorl` → `control`). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length)]);
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate closest to `word`, or null when none is close enough: at
 * most a third of the word's length in edits (at least 1, at most 3).
 */
export function nearest(word: string, candidates: Iterable<string>): string | null {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    if (c === word) continue;
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d <= limit && d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

/** `: did you mean control?` or "" — the tail of an error line. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const near = nearest(word, candidates);
  return near === null ? "" : `: did you mean ${near}?`;
}

/**
 * How far apart two words are, for typo tolerance: search's typo expansions
 * (lib/search/search.ts) and the "did you mean" of a misspelt body field
 * (lib/schemas/closed.ts). A module of its own so that the latter loads no search code.
 *
 * @module
 */

/**
 * Edit distance counting insertions, deletions, substitutions and swaps of two neighbouring
 * letters as one edit each (optimal string alignment); stops early and returns `max + 1`
 * once the distance exceeds `max`.
 *
 * @example
 * ```ts
 * editDistance("cuonter", "counter", 2); // 1
 * ```
 */
export function editDistance(a: string, b: string, max: number): number {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        d = Math.min(d, prev2[j - 2] + 1);
      }
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return Math.min(prev[t.length], max + 1);
}

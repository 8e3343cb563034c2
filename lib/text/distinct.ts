/**
 * Lists of points a model wrote (a judge's recommendations, consensus, disagreements)
 * without repeats: a model sometimes says the same point twice, in another case or with
 * other punctuation, and a report that repeats itself reads as broken.
 *
 * @module
 */

/** What two points are compared by: letters and digits only, in lower case. */
function sameness(point: string): string {
  return point.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/**
 * The points in order, each said once (the first wording kept), empty ones dropped.
 *
 * @example
 * ```ts
 * distinctPoints(["Read the study.", "read the study", "Ask a cyclist."]);
 * // ["Read the study.", "Ask a cyclist."]
 * ```
 */
export function distinctPoints(points: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of points) {
    const key = sameness(p);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out;
}

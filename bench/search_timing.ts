/**
 * Timing helpers of the search bench's workers (bench/search_worker.ts,
 * bench/search_library.ts): warm, sequential runs and nearest-rank quantiles.
 *
 * @module
 */

/** The measurements of one query by one engine. */
export interface QueryTiming {
  p50: number;
  p99: number;
  /** Results on page 1 (at most 20). */
  page: number;
  /** Of them, how many match the query's intent (bench/search_corpus.ts). */
  relevant: number;
  /** Matches the engine reports, and whether that count is complete (else a lower bound). */
  hits: number;
  complete: boolean;
  /** Timed runs (fewer than asked when the time budget ran out first). */
  runs: number;
}

/**
 * The `p`-quantile of ascending `sorted` (nearest rank).
 *
 * @example
 * ```ts
 * quantile([1, 2, 3, 4], 0.5); // 2
 * ```
 */
export function quantile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1))];
}

/** Timing stops after this long (a slow engine must not hold the bench for an hour). */
export const TIME_BUDGET_MS = 30_000;

/**
 * Milliseconds of `runs` sequential calls of `f`, ascending, after 5 warm-up calls — fewer
 * (at least 5) when {@link TIME_BUDGET_MS} runs out first.
 *
 * @example
 * ```ts
 * const times = await timed(200, async () => {});
 * quantile(times, 0.99);
 * ```
 */
export async function timed(runs: number, f: () => unknown): Promise<number[]> {
  const started = performance.now();
  for (let i = 0; i < 5; i++) await f();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    out.push(performance.now() - t);
    if (i >= 4 && performance.now() - started > TIME_BUDGET_MS) break;
  }
  return out.sort((a, b) => a - b);
}

/**
 * Progress of a long operation on the terminal: at most one line a second while it runs
 * (count so far and rate), and one line at the end.
 *
 * @module
 */

/** A progress line writer made by {@link progressReporter}. */
export interface ProgressReporter {
  /** Note the count so far; writes a line when the last one is a second old. */
  update(done: number): void;
  /** The closing line: count, time and rate (written, and returned). */
  finish(done: number): string;
}

const fmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/**
 * Report progress of `label` through `write` (stderr in the tasks).
 *
 * @example
 * ```ts
 * const progress = progressReporter("restore", (line) => console.error(line));
 * progress.update(5_000); // "restore: 5,000 entries (…/s)" if a second has passed
 * progress.finish(5_000); // "restore: 5,000 entries in 1.2 s (4,167/s)"
 * ```
 */
export function progressReporter(
  label: string,
  write: (line: string) => void,
  clock: () => number = performance.now.bind(performance),
): ProgressReporter {
  const start = clock();
  let last = start;
  const rate = (done: number, at: number) => fmt.format(done / Math.max((at - start) / 1000, 1e-3));
  return {
    update(done) {
      const at = clock();
      if (at - last < 1000) return;
      last = at;
      write(`${label}: ${fmt.format(done)} entries (${rate(done, at)}/s)`);
    },
    finish(done) {
      const at = clock();
      const line = `${label}: ${fmt.format(done)} entries in ${
        ((at - start) / 1000).toFixed(1)
      } s (${rate(done, at)}/s)`;
      write(line);
      return line;
    },
  };
}

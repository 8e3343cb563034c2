/**
 * Counters of the panel's model calls and KV commits in this process; the panel bench
 * (bench/panel.ts) reads them.
 *
 * @module
 */

/**
 * Model calls and commits made by the panel since the process started.
 *
 * @example
 * ```ts
 * const before = panelMetrics.modelCalls;
 * // … a panel runs …
 * console.log(panelMetrics.modelCalls - before);
 * ```
 */
export const panelMetrics = { modelCalls: 0, commits: 0 };

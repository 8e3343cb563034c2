/**
 * Logging a failure that repeats — a full disk meets every write, every lease renewal and
 * every job pass — once, not once per attempt: the first failure of a topic is logged in
 * full, repeats within {@link REPEAT_LOG_MS} are only counted, the count is logged with the
 * next failure after that, and the first success after failures logs that it recovered.
 *
 * @module
 */

/** Least time between two lines about one failing topic. */
export const REPEAT_LOG_MS = 60_000;

interface Topic {
  loggedAt: number;
  unlogged: number;
}

/** Where the lines go and the clock (tests swap both). */
export interface FailureLogOptions {
  now?: () => number;
  error?: (...data: unknown[]) => void;
  info?: (...data: unknown[]) => void;
  repeatMs?: number;
}

/**
 * One log of repeating failures, by topic.
 *
 * @example
 * ```ts
 * const log = new FailureLog();
 * log.failed("Job runner: pass", new Error("database or disk is full")); // logged
 * log.failed("Job runner: pass", new Error("database or disk is full")); // counted
 * log.succeeded("Job runner: pass"); // "Job runner: pass works again (1 more failure …)"
 * ```
 */
export class FailureLog {
  #topics = new Map<string, Topic>();
  #now: () => number;
  #error: (...data: unknown[]) => void;
  #info: (...data: unknown[]) => void;
  #repeatMs: number;

  constructor(opts: FailureLogOptions = {}) {
    this.#now = opts.now ?? (() => performance.now());
    this.#error = opts.error ?? ((...d) => console.error(...d));
    this.#info = opts.info ?? ((...d) => console.log(...d));
    this.#repeatMs = opts.repeatMs ?? REPEAT_LOG_MS;
  }

  /** Note a failure of `topic`: logged when it is the first, or the first in a while. */
  failed(topic: string, err: unknown): void {
    const now = this.#now();
    const seen = this.#topics.get(topic);
    if (seen && now - seen.loggedAt < this.#repeatMs) {
      seen.unlogged++;
      return;
    }
    const more = seen?.unlogged ? ` (${plural(seen.unlogged)} since the last line)` : "";
    this.#error(`${topic} failed${more}:`, err instanceof Error ? err.message : err);
    this.#topics.set(topic, { loggedAt: now, unlogged: 0 });
  }

  /** Note a success of `topic`: logs a recovery when it had failed. */
  succeeded(topic: string): void {
    const seen = this.#topics.get(topic);
    if (!seen) return;
    this.#topics.delete(topic);
    const more = seen.unlogged ? ` (${plural(seen.unlogged)} since the last line)` : "";
    this.#info(`${topic} works again${more}`);
  }
}

function plural(n: number): string {
  return n === 1 ? "1 more failure" : `${n} more failures`;
}

/**
 * The process's log of store failures (requests, `/healthz`, the job runner).
 *
 * @example
 * ```ts
 * storeFailureLog.failed("KV write", new TypeError("database or disk is full"));
 * ```
 */
export const storeFailureLog: FailureLog = new FailureLog();

/**
 * What `/healthz` reports about the store: that it can be read *and* written. Every check
 * reads the probe key `["meta", "health"]`; a write of it (the time, through the lock
 * retry) happens at most once per {@link PROBE_WRITE_EVERY_MS} per process — the route is
 * polled often, and a write per poll would cost more than the request — and its last
 * result is reported in between. After a failed write the next check tries again sooner
 * ({@link PROBE_RETRY_MS}), so recovery (space freed) shows within a second or so.
 *
 * @module
 */
import { perStore } from "../cache.ts";
import { storeFailureLog } from "./failure_log.ts";
import { keys } from "./keys.ts";
import { withLockRetry } from "./retry.ts";
import { storeFailure } from "./storage_errors.ts";

/** Least time between two probe writes after a success. */
export const PROBE_WRITE_EVERY_MS = 5_000;
/** Least time between two probe writes after a failure. */
export const PROBE_RETRY_MS = 1_000;
/** Longest a probe write waits out a lock held by other writers. */
const PROBE_LOCK_BUDGET_MS = 1_000;

/** One check's result: `ok` when both the read and the last write worked. */
export interface KvHealth {
  ok: boolean;
  read: "ok" | "failed";
  write: "ok" | "failed";
  /** What failed, in one sentence (absent when ok). */
  error?: string;
}

interface WriteResult {
  ok: boolean;
  error?: string;
  at: number;
}

/** Options of {@link KvProbe} (tests shorten the periods). */
export interface KvProbeOptions {
  writeEveryMs?: number;
  retryMs?: number;
  now?: () => number;
}

/**
 * The probe of one store.
 *
 * @example
 * ```ts
 * const kv = await Deno.openKv(":memory:");
 * const health = await new KvProbe(kv).check();
 * health.ok; // true
 * kv.close();
 * ```
 */
export class KvProbe {
  #kv: Deno.Kv;
  #last: WriteResult | null = null;
  #writing: Promise<WriteResult> | null = null;
  #writeEveryMs: number;
  #retryMs: number;
  #now: () => number;

  constructor(kv: Deno.Kv, opts: KvProbeOptions = {}) {
    this.#kv = kv;
    this.#writeEveryMs = opts.writeEveryMs ?? PROBE_WRITE_EVERY_MS;
    this.#retryMs = opts.retryMs ?? PROBE_RETRY_MS;
    this.#now = opts.now ?? (() => performance.now());
  }

  /** Read the probe key, write it when the last write is old enough, and report both. */
  async check(): Promise<KvHealth> {
    const [read, write] = await Promise.all([this.#read(), this.#lastWrite()]);
    const ok = read.ok && write.ok;
    const error = read.error ?? write.error;
    return {
      ok,
      read: read.ok ? "ok" : "failed",
      write: write.ok ? "ok" : "failed",
      ...(ok ? {} : { error }),
    };
  }

  async #read(): Promise<{ ok: boolean; error?: string }> {
    try {
      await this.#kv.get(keys.health());
      storeFailureLog.succeeded("Health check: KV read");
      return { ok: true };
    } catch (err) {
      storeFailureLog.failed("Health check: KV read", err);
      return { ok: false, error: describe("read", err) };
    }
  }

  #lastWrite(): Promise<WriteResult> {
    const last = this.#last;
    const wait = last?.ok ? this.#writeEveryMs : this.#retryMs;
    if (last && this.#now() - last.at < wait) return Promise.resolve(last);
    this.#writing ??= this.#write().then((r) => {
      this.#last = r;
      this.#writing = null;
      return r;
    });
    return this.#writing;
  }

  async #write(): Promise<WriteResult> {
    try {
      const res = await withLockRetry(
        () => this.#kv.atomic().set(keys.health(), Date.now()).commit(),
        PROBE_LOCK_BUDGET_MS,
      );
      if (!res.ok) throw new Error("the probe write was not committed");
      storeFailureLog.succeeded("Health check: KV write");
      return { ok: true, at: this.#now() };
    } catch (err) {
      storeFailureLog.failed("Health check: KV write", err);
      return { ok: false, error: describe("write", err), at: this.#now() };
    }
  }
}

/** The sentence of a failed probe: the kind of store failure when known, else the message. */
function describe(what: "read" | "write", err: unknown): string {
  const failure = storeFailure(err);
  if (failure) return `KV ${what} failed: ${failure.what}`;
  const message = err instanceof Error ? err.message : String(err);
  return `KV ${what} failed: ${message.split("\n")[0].slice(0, 200)}`;
}

const probes = perStore((kv: Deno.Kv) => new KvProbe(kv));

/**
 * The process's probe of `kv` (one per store).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { ok } = await kvProbe(kv).check();
 * ```
 */
export function kvProbe(kv: Deno.Kv): KvProbe {
  return probes(kv);
}

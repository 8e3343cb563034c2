/**
 * The AI avatar job's timer: a tick every 30 s on each instance (the lease makes sure
 * only one of them works at a time), stopped on shutdown before KV closes — a model
 * call in flight is cancelled and the tick is awaited.
 *
 * @module
 */
import type { Services } from "../state.ts";
import { AVATAR_INTERVAL_MS } from "./lease.ts";
import { runAvatarTick } from "./tick.ts";

/** A running job. */
export interface AvatarJob {
  /** This instance's id in the lease. */
  owner: string;
  /** Stop the timer, cancel a running tick and wait for it. Idempotent. */
  stop(): Promise<void>;
}

/** Options of {@link startAvatarJob}. */
export interface AvatarJobOptions {
  /** Timer period in ms (default 30 s, SPEC.md). */
  intervalMs?: number;
}

/**
 * Start ticking.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/state.ts";
 * declare const services: Services;
 * const job = startAvatarJob(services);
 * // on shutdown, before kv.close():
 * await job.stop();
 * ```
 */
export function startAvatarJob(services: Services, opts: AvatarJobOptions = {}): AvatarJob {
  const owner = crypto.randomUUID();
  const controller = new AbortController();
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running || controller.signal.aborted) return;
    running = runAvatarTick(services, services.now(), { owner, signal: controller.signal })
      .then(() => {}, (err) => console.error("AI avatar: tick failed", err))
      .finally(() => running = null);
  };
  const timer = setInterval(tick, opts.intervalMs ?? AVATAR_INTERVAL_MS);
  return {
    owner,
    async stop() {
      clearInterval(timer);
      controller.abort();
      await running;
    },
  };
}

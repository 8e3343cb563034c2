/**
 * The AI avatar job as a periodic job (lib/jobs/schedule.ts): a tick every 30 s across
 * all instances, driven by KV queue messages. The lease in lib/avatar/lease.ts still
 * guards each tick, so even two schedulers (or a one-off caller) never run two ticks at
 * once; a stopping scheduler aborts the tick's model call and waits for it.
 *
 * @module
 */
import type { PeriodicJob } from "../jobs/schedule.ts";
import type { Services } from "../state.ts";
import { AVATAR_INTERVAL_MS } from "./lease.ts";
import { runAvatarTick } from "./tick.ts";

/** Options of {@link avatarJob}. */
export interface AvatarJobOptions {
  /** Period in ms (default 30 s, SPEC.md). */
  intervalMs?: number;
  /** This instance's id in the avatar lease (default: a fresh id). */
  owner?: string;
}

/**
 * The avatar tick as a {@link PeriodicJob} named `avatar`.
 *
 * @example
 * ```ts
 * import { startScheduler } from "@/lib/jobs/schedule.ts";
 * import type { Services } from "@/lib/state.ts";
 * declare const services: Services;
 * const scheduler = await startScheduler(services.kv, [avatarJob(services)]);
 * await scheduler.stop();
 * ```
 */
export function avatarJob(services: Services, opts: AvatarJobOptions = {}): PeriodicJob {
  const owner = opts.owner ?? crypto.randomUUID();
  return {
    name: "avatar",
    intervalMs: opts.intervalMs ?? AVATAR_INTERVAL_MS,
    run: (signal) => runAvatarTick(services, services.now(), { owner, signal }),
  };
}

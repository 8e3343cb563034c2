/**
 * The AI avatar as a periodic job of the runner (lib/jobs/runner.ts): one tick every 30 s
 * across all instances. The runner's lease makes one instance run it at a time; the tick
 * record (lib/avatar/tick.ts) keeps ticks the interval apart even for direct callers, and
 * the per-question markers keep answers single. Shutdown aborts a tick's model call.
 *
 * @module
 */
import type { JobKind } from "../jobs/runner.ts";
import type { Services } from "../services.ts";
import { AVATAR_INTERVAL_MS, runAvatarTick } from "./tick.ts";

/** The job kind's name. */
export const AVATAR_JOB = "avatar";

/**
 * The avatar tick as a periodic job kind.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * import type { Services } from "@/lib/services.ts";
 * declare const services: Services;
 * jobRunner(services.kv).register(avatarJobKind(services));
 * ```
 */
export function avatarJobKind(services: Services, intervalMs = AVATAR_INTERVAL_MS): JobKind {
  return {
    kind: AVATAR_JOB,
    every: intervalMs,
    canRun: () => services.llm !== undefined,
    run: async (ctx) => {
      await runAvatarTick(services, services.now(), {
        signal: ctx.signal,
        fence: ctx.fence,
        intervalMs,
      });
    },
  };
}

/**
 * Parley's background work, all of it periodic jobs on KV queue messages
 * (lib/jobs/schedule.ts): the AI avatar tick (every 30 s) and the resumer of debates
 * whose instance died (every 2 s), and the resumer of AI expert panels (every 2 s). `main.ts` starts it before serving; nothing here
 * uses a timer, so it runs the same way on one machine and on Deno Deploy.
 *
 * @module
 */
import { avatarJob } from "../avatar/job.ts";
import { debateResumeJob } from "../debates/resume.ts";
import { panelResumeJob } from "../panel/job.ts";
import type { Services } from "../state.ts";
import { type Scheduler, startScheduler } from "./schedule.ts";

/** Periods of the jobs (tests shorten them). */
export interface BackgroundOptions {
  /** AI avatar tick period (default 30 s). */
  avatarIntervalMs?: number;
  /** Debate resumer period (default 2 s). */
  debateResumeIntervalMs?: number;
  /** AI expert panel resumer period (default 2 s). */
  panelResumeIntervalMs?: number;
}

/**
 * Register the queue listener and make sure every job's schedule exists.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/state.ts";
 * declare const services: Services;
 * const background = await startBackgroundWork(services);
 * // call background.nudge() as requests arrive; on shutdown, before kv.close():
 * await background.stop();
 * ```
 */
export async function startBackgroundWork(
  services: Services,
  opts: BackgroundOptions = {},
): Promise<Scheduler> {
  const owner = `${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  return await startScheduler(services.kv, [
    avatarJob(services, { intervalMs: opts.avatarIntervalMs, owner }),
    debateResumeJob(services, { intervalMs: opts.debateResumeIntervalMs }),
    panelResumeJob(services, { intervalMs: opts.panelResumeIntervalMs }),
  ], { owner });
}

/**
 * What runs the job runner's resume pass, without KV queues (today's Deno Deploy has
 * none): `Deno.cron` once a minute — registered by main.ts at module top level, before
 * `Deno.serve`, where Deploy discovers it — incoming requests (throttled, {@link
 * JobRunner.nudge}), and a timer while the process lives ({@link JobRunner.startTimer}).
 * A crashed instance's job is thus resumed within seconds while there is traffic and
 * within about a minute plus the lease when there is none.
 *
 * @module
 */
import type { JobRunner } from "./runner.ts";

/** The cron job's name and schedule (Deploy: 5 fields, UTC, a minute at the finest). */
export const JOBS_CRON = { name: "parley-jobs", schedule: "* * * * *" } as const;

/** Longest a cron invocation keeps the isolate busy with what its pass took. */
export const CRON_BUSY_MS = 50_000;

/**
 * One cron invocation: wait for the app to be up (the isolate may have just started for
 * this), run a pass, and stay while what it took runs, within the minute.
 *
 * @example
 * ```ts
 * import type { JobRunner } from "@/lib/jobs/runner.ts";
 * declare const ready: Promise<JobRunner>;
 * Deno.cron(JOBS_CRON.name, JOBS_CRON.schedule, () => cronPass(ready));
 * ```
 */
export async function cronPass(ready: Promise<JobRunner>, busyMs = CRON_BUSY_MS): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const runner = await Promise.race([
    ready,
    new Promise<null>((r) => timer = setTimeout(() => r(null), busyMs)),
  ]);
  clearTimeout(timer);
  if (!runner) return;
  // A failing store (full, read-only) fails every pass until it works: logged once by the
  // runner, and the cron handler never throws.
  await runner.tryPass();
  await runner.waitIdle(busyMs);
}

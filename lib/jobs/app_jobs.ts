/**
 * Parley's job kinds on the process's runner: debates, expert panels, answers' follower
 * fan-outs, backfills of the vote-ordered answer rows, account deletions, and the AI avatar (every 30 s). `createApp` calls this once per
 * store; the triggers (lib/jobs/triggers.ts) only run passes.
 *
 * @module
 */
import { avatarJobKind } from "../avatar/job.ts";
import { debateJobKind } from "../debates/job.ts";
import { panelJobKind } from "../panel/job.ts";
import { fanoutJobKind } from "../notifications/fanout.ts";
import { answerOrderJobKind } from "../community/answer_order_job.ts";
import { accountDeletionJobKind } from "../account/delete_job.ts";
import type { Services } from "../services.ts";
import { type JobRunner, jobRunner } from "./runner.ts";

/**
 * The runner of `services.kv` with every kind registered.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * declare const services: Services;
 * const jobs = appJobs(services);
 * jobs.nudge();
 * ```
 */
export function appJobs(services: Services): JobRunner {
  return jobRunner(services.kv, { now: services.now })
    .register(debateJobKind(services))
    .register(panelJobKind(services))
    .register(fanoutJobKind(services.now))
    .register(answerOrderJobKind())
    .register(accountDeletionJobKind(services.now))
    .register(avatarJobKind(services, services.avatarIntervalMs));
}

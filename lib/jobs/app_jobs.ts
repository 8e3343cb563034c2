/**
 * Parley's job kinds on the process's runner: debates, expert panels, roundtables, answers' follower
 * fan-outs, backfills of the vote-ordered answer rows, account deletions, the search index's reindexing and
 * backfill, the AI avatar (every 30 s), questions' embeddings (every 30 s), the sitemap rolls
 * (every 10 min), the one-time backfill of the public debates' index, questions' opinion
 * maps and summaries (one job per question, created by the request that finds them stale)
 * and the compaction migration of older stores' records (lib/ops/compact.ts). `createApp` calls
 * this once per store; the triggers (lib/jobs/triggers.ts) only run passes.
 *
 * @module
 */
import { avatarJobKind } from "../avatar/job.ts";
import { debateJobKind } from "../debates/job.ts";
import { panelJobKind } from "../panel/job.ts";
import { roundtableJobKind } from "../roundtables/job.ts";
import { fanoutJobKind } from "../notifications/fanout.ts";
import { answerOrderJobKind } from "../community/answer_order_job.ts";
import { searchJobKind } from "../search/job.ts";
import { embeddingJobKind } from "../search/embedding_job.ts";
import { debateIndexBackfillJobKind } from "../debates/time_index_backfill.ts";
import { sitemapRollJobKind } from "../seo/sitemap_rolls.ts";
import { accountDeletionJobKind } from "../account/delete_job.ts";
import { insightsJobKind } from "../insights/job.ts";
import { compactJobKind } from "../ops/compact.ts";
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
    .register(roundtableJobKind(services))
    .register(fanoutJobKind(services.now))
    .register(answerOrderJobKind())
    .register(accountDeletionJobKind(services.now))
    .register(searchJobKind(services.searchJobEveryMs))
    .register(avatarJobKind(services, services.avatarIntervalMs))
    .register(embeddingJobKind(services))
    .register(sitemapRollJobKind(services.now))
    .register(debateIndexBackfillJobKind(services.now))
    .register(insightsJobKind(services))
    .register(compactJobKind(services.now));
}

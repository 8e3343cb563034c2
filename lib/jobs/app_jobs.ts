/**
 * Parley's job kinds on the process's runner: debates, expert panels, roundtables, answers'
 * follower fan-outs, backfills of the vote-ordered answer rows, account deletions, the search
 * index's reindexing and backfill, the AI avatar (every 30 s), questions' embeddings (every
 * 30 s), the sitemap rolls (every 10 min), the one-time backfill of the public debates' index,
 * questions' opinion maps and summaries (one job per question, created by the request that
 * finds them stale) and the compaction migration of older stores' records (lib/ops/compact.ts).
 * `createApp` calls this once per store; the triggers (lib/jobs/triggers.ts) only run passes.
 *
 * Every kind is registered at once (a pass must know them all) but its code — the model
 * client, Markdown, search analysis… — is imported when a job of it first runs
 * ({@link lazyJobKind}) through lib/import_on_use.ts: start-up neither loads nor analyses
 * any of it (main.ts's start-up budget). A kind's
 * name, period and `canRun` are therefore stated here; a test checks them against the
 * kinds themselves.
 *
 * @module
 */
import { embedOnWrites } from "../search/embed_on_write.ts";
import type { Services } from "../services.ts";
import { type JobKind, type JobRunner, jobRunner } from "./runner.ts";
import { importOnUse } from "../import_on_use.ts";

/** A kind's module, imported on its first run by a URL Deno's start-up graph does not follow. */
const code = <T>(path: string) => importOnUse<T>(new URL(path, import.meta.url));

/** What a pass needs of a kind before its code is loaded. */
export interface LazyKindInfo {
  kind: string;
  every?: number;
  revision?: number;
  canRun?: () => boolean;
}

/**
 * A kind whose code is imported on its first run (or give-up), then kept.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * declare const services: Services;
 * const fanout = lazyJobKind(
 *   { kind: "fanout" },
 *   async () => (await import("@/lib/notifications/fanout.ts")).fanoutJobKind(services.now),
 * );
 * ```
 */
export function lazyJobKind<Local = unknown>(
  info: LazyKindInfo,
  load: () => Promise<JobKind<Local>>,
): JobKind<Local> {
  let loading: Promise<JobKind<Local>> | null = null;
  const real = () =>
    loading ??= load().catch((err) => {
      loading = null;
      throw err;
    });
  return {
    ...info,
    run: async (ctx) => await (await real()).run(ctx),
    giveUp: async (ctx) => await (await real()).giveUp?.(ctx),
  };
}

/** Default periods and revisions, as the kinds state them (checked by app_jobs_test.ts). */
export const AVATAR_EVERY_MS = 30_000;
export const SEARCH_EVERY_MS = 5_000;
export const EMBEDDINGS_EVERY_MS = 30_000;
export const SITEMAP_ROLLS_EVERY_MS = 10 * 60_000;
export const DEBATE_INDEX_BACKFILL_EVERY_MS = 24 * 60 * 60_000;
export const COMPACT_EVERY_MS = 24 * 60 * 60_000;
/** The compaction migration's revision: the record shape it brings a store to. */
export const COMPACT_REVISION = 6;

/**
 * Every kind of `services`, each loaded on first use.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * declare const services: Services;
 * const names = appJobKinds(services).map((k) => k.kind);
 * ```
 */
export function appJobKinds(services: Services): JobKind<never>[] {
  const withModel = () => services.llm !== undefined;
  const kinds: JobKind<never>[] = [
    lazyJobKind(
      { kind: "debate", canRun: withModel },
      async () =>
        (await code<typeof import("../debates/job.ts")>("../debates/job.ts")).debateJobKind(
          services,
        ),
    ),
    lazyJobKind(
      { kind: "panel", canRun: withModel },
      async () =>
        (await code<typeof import("../panel/job.ts")>("../panel/job.ts")).panelJobKind(services),
    ),
    lazyJobKind(
      { kind: "roundtable", canRun: withModel },
      async () =>
        (await code<typeof import("../roundtables/job.ts")>("../roundtables/job.ts"))
          .roundtableJobKind(services),
    ),
    lazyJobKind(
      { kind: "insights", canRun: withModel },
      async () =>
        (await code<typeof import("../insights/job.ts")>("../insights/job.ts")).insightsJobKind(
          services,
        ),
    ),
    lazyJobKind(
      { kind: "compact", every: COMPACT_EVERY_MS, revision: COMPACT_REVISION },
      async () =>
        (await code<typeof import("../ops/compact.ts")>("../ops/compact.ts")).compactJobKind(
          services.now,
        ),
    ),
    lazyJobKind(
      { kind: "fanout" },
      async () =>
        (await code<typeof import("../notifications/fanout.ts")>("../notifications/fanout.ts"))
          .fanoutJobKind(services.now),
    ),
    lazyJobKind(
      { kind: "answer-order" },
      async () =>
        (await code<typeof import("../community/answer_order_job.ts")>(
          "../community/answer_order_job.ts",
        )).answerOrderJobKind(),
    ),
    lazyJobKind(
      { kind: "account-deletion" },
      async () =>
        (await code<typeof import("../account/delete_job.ts")>("../account/delete_job.ts"))
          .accountDeletionJobKind(services.now),
    ),
    lazyJobKind(
      { kind: "search", every: services.searchJobEveryMs ?? SEARCH_EVERY_MS },
      async () =>
        (await code<typeof import("../search/job.ts")>("../search/job.ts")).searchJobKind(
          services.searchJobEveryMs,
        ),
    ),
    lazyJobKind(
      { kind: "avatar", every: services.avatarIntervalMs ?? AVATAR_EVERY_MS, canRun: withModel },
      async () =>
        (await code<typeof import("../avatar/job.ts")>("../avatar/job.ts")).avatarJobKind(
          services,
          services.avatarIntervalMs,
        ),
    ),
    lazyJobKind(
      {
        kind: "embeddings",
        every: EMBEDDINGS_EVERY_MS,
        canRun: () => services.embedder !== undefined,
      },
      async () =>
        (await code<typeof import("../search/embedding_job.ts")>("../search/embedding_job.ts"))
          .embeddingJobKind(services),
    ),
    lazyJobKind(
      { kind: "sitemap-rolls", every: SITEMAP_ROLLS_EVERY_MS },
      async () =>
        (await code<typeof import("../seo/sitemap_rolls.ts")>("../seo/sitemap_rolls.ts"))
          .sitemapRollJobKind(services.now),
    ),
    lazyJobKind(
      { kind: "debate-index-backfill", every: DEBATE_INDEX_BACKFILL_EVERY_MS },
      async () =>
        (await code<typeof import("../debates/time_index_backfill.ts")>(
          "../debates/time_index_backfill.ts",
        )).debateIndexBackfillJobKind(
          services.now,
        ),
    ),
  ] as JobKind<never>[];
  return kinds;
}

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
  // Writes embed their question at once (the embeddings kind's own registration does
  // this too, once its code loads).
  embedOnWrites(services.kv, services.embedder);
  const runner = jobRunner(services.kv, { now: services.now });
  for (const kind of appJobKinds(services)) runner.register(kind);
  return runner;
}

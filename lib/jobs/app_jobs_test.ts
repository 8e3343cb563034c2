/** The kinds registered at start-up mirror the kinds their code defines, loaded or not. */
import assert from "node:assert/strict";
import { parseConfig } from "../config.ts";
import type { Services } from "../services.ts";
import type { LlmClient } from "../llm/types.ts";
import { appJobKinds } from "./app_jobs.ts";
import type { JobKind } from "./runner.ts";
import { debateJobKind } from "../debates/job.ts";
import { panelJobKind } from "../panel/job.ts";
import { fanoutJobKind } from "../notifications/fanout.ts";
import { answerOrderJobKind } from "../community/answer_order_job.ts";
import { accountDeletionJobKind } from "../account/delete_job.ts";
import { searchJobKind } from "../search/job.ts";
import { avatarJobKind } from "../avatar/job.ts";
import { embeddingJobKind } from "../search/embedding_job.ts";
import { sitemapRollJobKind } from "../seo/sitemap_rolls.ts";
import { debateIndexBackfillJobKind } from "../debates/time_index_backfill.ts";
import { roundtableJobKind } from "../roundtables/job.ts";
import { insightsJobKind } from "../insights/job.ts";
import { compactJobKind } from "../ops/compact.ts";
import type { Embedder } from "../search/embeddings.ts";

function realKinds(services: Services): JobKind<never>[] {
  return [
    debateJobKind(services),
    panelJobKind(services),
    fanoutJobKind(services.now),
    answerOrderJobKind(),
    accountDeletionJobKind(services.now),
    searchJobKind(services.searchJobEveryMs),
    avatarJobKind(services, services.avatarIntervalMs),
    embeddingJobKind(services),
    sitemapRollJobKind(services.now),
    debateIndexBackfillJobKind(services.now),
    roundtableJobKind(services),
    insightsJobKind(services),
    compactJobKind(services.now),
  ] as JobKind<never>[];
}

const summary = (k: JobKind<never>) => ({
  kind: k.kind,
  every: k.every,
  revision: k.revision,
  canRun: k.canRun?.() ?? true,
});

Deno.test("appJobKinds() states every kind's name, period, revision and canRun as its code does", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const base: Services = {
      kv,
      config: parseConfig({ KV_PATH: ":memory:" }),
      secret: "x".repeat(32),
      now: Date.now,
    };
    const llm = { model: "m", standIn: true } as LlmClient;
    const embedder = { model: "e", dims: 8 } as Embedder;
    const variants: Services[] = [
      base,
      { ...base, llm, embedder },
      { ...base, llm, avatarIntervalMs: 1_234, searchJobEveryMs: 567 },
    ];
    for (const services of variants) {
      const lazy = appJobKinds(services).map(summary).sort((a, b) => a.kind.localeCompare(b.kind));
      const real = realKinds(services).map(summary).sort((a, b) => a.kind.localeCompare(b.kind));
      assert.deepEqual(lazy, real);
    }
  } finally {
    kv.close();
  }
});

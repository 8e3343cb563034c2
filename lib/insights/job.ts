/**
 * The insights job (lib/jobs/runner.ts): one job per question, id = the question id,
 * writes the question's opinion map and thread summary (./model.ts says when). A request
 * that finds either stale creates the job (its row is created with a check that none
 * exists, so two instances never both start one) and goes on serving what is cached; the
 * job reads the thread, asks the model (both calls at once), and writes each result under
 * the job's fence, so a stalled holder whose lease another instance took writes nothing.
 * A killed instance's job is resumed by any instance's pass.
 *
 * Per model call one unit of the day's budget is spent (./budget.ts); with none left, or
 * a model that fails, the cached entry gets a `retryAt` (the next UTC day, or
 * {@link FAILURE_BACKOFF_MS}) and requests do not schedule again before it. A thread
 * whose answers are the same as last time (same ids, revisions and accepted answer) costs
 * no model call: only its counters are moved.
 *
 * @module
 */
import { commit, counterValue } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { JobContext, JobKind } from "../jobs/runner.ts";
import { jobRunner } from "../jobs/runner.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { isPublic } from "../community/visibility.ts";
import { invalidateReads } from "../community/read_cache.ts";
import { type LlmClient, LlmError } from "../llm/types.ts";
import type { Config } from "../config.ts";
import { readMaterial, type ThreadMaterial } from "./answers.ts";
import { nextDayStart, spendInsightBudget } from "./budget.ts";
import { generateMap, generateSummary } from "./generate.ts";
import {
  FAILURE_BACKOFF_MS,
  type InsightKind,
  INSIGHTS_JOB,
  MAP_MIN_ANSWERS,
  type StoredInsight,
  SUMMARY_MIN_ANSWERS,
  type ThreadNow,
  wantsRefresh,
} from "./model.ts";

/** What the job needs of the app's services. */
export interface InsightServices {
  kv: Deno.Kv;
  now: () => number;
  llm?: LlmClient;
  config: Pick<Config, "insightsPerDay">;
}

/** Counts of the work done, for the benchmark. */
export const insightMetrics = { runs: 0, modelCalls: 0, skippedSame: 0 };

/**
 * Create the question's insights job unless one exists, and start it here. False when no
 * job was created (one exists, or another instance created it first). Never throws: a
 * failure only means the next request tries again.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await scheduleInsights(kv, "q-abc");
 * ```
 */
export async function scheduleInsights(kv: Deno.Kv, questionId: string): Promise<boolean> {
  const runner = jobRunner(kv);
  if (!runner.has(INSIGHTS_JOB)) return false;
  try {
    const res = await commit(kv, (op) => runner.newJobOps(op, INSIGHTS_JOB, questionId));
    if (!res.ok) return false;
    await runner.adopt(INSIGHTS_JOB, questionId);
    return true;
  } catch (err) {
    console.error(`Insights ${questionId}: could not schedule`, err);
    return false;
  }
}

/**
 * The insights job kind.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const services: InsightServices;
 * jobRunner(services.kv).register(insightsJobKind(services));
 * ```
 */
export function insightsJobKind(services: InsightServices): JobKind {
  return {
    kind: INSIGHTS_JOB,
    // An instance without a model leaves the job to others.
    canRun: () => services.llm !== undefined,
    run: (ctx) => runInsightsJob(services, ctx),
    // A run that kept failing (not the model: that is handled inside) is let go with a
    // retry time on both entries, so reads do not start it again at once.
    giveUp: async (ctx) => {
      const retryAt = services.now() + FAILURE_BACKOFF_MS;
      const kinds = ["map", "summary"] as const;
      const got = await ctx.kv.getMany<Cached[]>(kinds.map((k) => keys.insight(ctx.id, k)));
      await commit(ctx.kv, (op) => {
        ctx.finish(op);
        kinds.forEach((k, i) => {
          const entry: Cached = got[i].value ?? {
            value: null,
            messageCount: 0,
            generatedAt: services.now(),
            counterAt: -1,
            acceptedAt: null,
            basis: [],
            signature: "none",
          };
          op.set(keys.insight(ctx.id, k), { ...entry, retryAt });
        });
      });
    },
  };
}

type Cached = StoredInsight<unknown>;

async function runInsightsJob(services: InsightServices, ctx: JobContext): Promise<void> {
  const { kv } = services;
  const questionId = ctx.id;
  insightMetrics.runs++;
  const [qEntry, counter, accepted, mapEntry, summaryEntry] = await kv.getMany([
    keys.question(questionId),
    keys.answerCount(questionId),
    keys.acceptedAnswer(questionId),
    keys.insight(questionId, "map"),
    keys.insight(questionId, "summary"),
  ]);
  const q = qEntry.value as QuestionRecord | null;
  // A hidden or deleted question gets nothing new written about it.
  if (!q || !isPublic(q)) return;
  const now: ThreadNow = {
    answers: counterValue(counter.value),
    accepted: (accepted.value as string | null) ?? null,
  };
  const cached = {
    map: mapEntry.value as Cached | null,
    summary: summaryEntry.value as Cached | null,
  };
  const material = await readMaterial(kv, questionId, now.accepted);
  const t = services.now();
  const todo = (["map", "summary"] as const).filter((kind) => {
    const c = cached[kind];
    const withdrawn = !!c?.value && c.basis.some((id) => !material.eligible.has(id));
    // A retry time set by a failure or the budget holds here too (a resume or a second
    // schedule does not bypass it).
    return wantsRefresh(kind, c, now, withdrawn, t);
  });
  if (todo.length === 0 || ctx.signal.aborted) return;
  const written = await Promise.all(
    todo.map((kind) => writeOne(services, ctx, kind, q, now, material, cached[kind])),
  );
  if (written.some(Boolean)) invalidateReads(kv);
}

/** Make and store one insight; true when something was stored. */
async function writeOne(
  services: InsightServices,
  ctx: JobContext,
  kind: InsightKind,
  q: QuestionRecord,
  now: ThreadNow,
  material: ThreadMaterial,
  cached: Cached | null,
): Promise<boolean> {
  const { kv, llm } = services;
  const t = services.now();
  const min = kind === "map" ? MAP_MIN_ANSWERS : SUMMARY_MIN_ANSWERS;
  const base: Omit<Cached, "value" | "basis" | "signature"> = {
    messageCount: material.count,
    generatedAt: t,
    counterAt: now.answers,
    acceptedAt: now.accepted,
  };
  const store = async (entry: Cached) =>
    (await commit(kv, (op) => ctx.fence(op).set(keys.insight(q.id, kind), entry))).ok;
  if (material.count < min) {
    return await store({ ...base, value: null, basis: [], signature: material.signature });
  }
  const sameMaterial = cached?.value && cached.signature === material.signature &&
    cached.basis.every((id) => material.eligible.has(id));
  if (sameMaterial) {
    // The thread grew but what the model would be shown did not change (a long thread
    // whose new answers are outside the ones shown): move the counters only.
    insightMetrics.skippedSame++;
    const { retryAt: _retry, ...kept } = cached;
    return await store({ ...kept, counterAt: now.answers, acceptedAt: now.accepted });
  }
  // What stays servable while the model is asked again later: the last one, unless an
  // answer it was made from is gone (requests check that too).
  const keepOrNull = (retryAt: number): Cached =>
    cached
      ? { ...cached, retryAt }
      : { ...base, value: null, basis: [], signature: "none", retryAt };
  if (!llm) return false;
  if (!await spendInsightBudget(kv, t, services.config.insightsPerDay)) {
    return await store(keepOrNull(nextDayStart(t)));
  }
  insightMetrics.modelCalls++;
  let value: unknown = null;
  try {
    value = kind === "map"
      ? await generateMap(llm, q, material.shown, ctx.signal)
      : await generateSummary(llm, q, material.shown, ctx.signal);
  } catch (err) {
    if (ctx.signal.aborted) return false;
    if (!(err instanceof LlmError)) throw err;
    console.warn(`Insights ${q.id}: the ${kind} failed (${err.kind}): ${err.message}`);
  }
  if (ctx.signal.aborted) return false;
  if (value === null) return await store(keepOrNull(t + FAILURE_BACKOFF_MS));
  return await store({
    ...base,
    value,
    basis: material.shown.map((a) => a.id),
    signature: material.signature,
    ...(llm.standIn ? { standIn: true as const } : {}),
  });
}

/**
 * Serving a question's opinion map and thread summary (docs/interface.md#opinion-map-and-summary):
 * never waits for a model. One `getMany` reads the question, its answer counter and
 * accepted answer, both cached insights and the job row; one more reads the records of the
 * answers the cached ones were made from (at most 24, in `getMany`s of 10, together), so
 * an answer hidden or deleted since is never shown: the map loses its node (and the
 * edges and cluster places that named it), the summary is not served until it is
 * rewritten. When either is stale (./model.ts) and a model is available, the job is
 * created (./job.ts) and the answer says `generating`.
 *
 * The question's own visibility holds: an unknown, hidden or deleted question is
 * `not_found` except to its author and moderators (lib/community/visibility.ts), and
 * nothing new is generated for a question that is not public.
 *
 * @module
 */
import { counterValue, getAll } from "../kv/atomic.ts";
import { cachedRead } from "../community/read_cache.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { isPublic, maySee, type Viewer } from "../community/visibility.ts";
import {
  type InsightStatusValue,
  type MapResponseValue,
  OpinionMap,
  type OpinionMapValue,
  type SummaryResponseValue,
  type ThreadSummaryValue,
} from "../schemas/insights.ts";
import { isInsightAnswer } from "./answers.ts";
import { scheduleInsights } from "./job.ts";
import {
  type InsightKind,
  MAP_MIN_ANSWERS,
  type StoredMap,
  type StoredSummary,
  SUMMARY_MIN_ANSWERS,
  type ThreadNow,
  wantsRefresh,
} from "./model.ts";

/** What serving needs: the store, the clock, and whether a model can write new ones. */
export interface InsightReader {
  kv: Deno.Kv;
  now: () => number;
  /** A model is configured (the job kind runs only where one is). */
  llm?: unknown;
}

/** Both insights of a question as served, with whether they are AI-written by the stand-in. */
export interface ThreadInsightsView {
  map: MapResponseValue;
  summary: SummaryResponseValue;
  /** Written by the offline stand-in model (local mode): the page says so. */
  standIn: { map: boolean; summary: boolean };
  /**
   * Answers the served summary was written from (those shown to the model, at most a
   * bounded sample of a long thread; 0 when none is served). The served `messageCount`
   * counts every eligible answer then, so the page says "from N answers" with this.
   */
  summaryAnswers: number;
}

/**
 * A map without the nodes of `gone` answers (and the edges and cluster places naming
 * them); null when fewer than {@link MAP_MIN_ANSWERS} nodes are left.
 *
 * @example
 * ```ts
 * import type { OpinionMapValue } from "@/lib/schemas/insights.ts";
 * declare const map: OpinionMapValue;
 * const shown = withoutAnswers(map, new Set(["msg-hidden"]));
 * ```
 */
export function withoutAnswers(
  map: OpinionMapValue,
  gone: ReadonlySet<string>,
): OpinionMapValue | null {
  if (!map.nodes.some((n) => gone.has(n.messageId))) return map;
  const nodes = map.nodes.filter((n) => !gone.has(n.messageId));
  if (nodes.length < MAP_MIN_ANSWERS) return null;
  const ids = new Set(nodes.map((n) => n.id));
  const filtered = {
    nodes,
    edges: map.edges.filter((e) => ids.has(e.source) && ids.has(e.target)),
    clusters: map.clusters
      .map((c) => ({ ...c, nodeIds: c.nodeIds.filter((id) => ids.has(id)) }))
      .filter((c) => c.nodeIds.length > 0),
  };
  const checked = OpinionMap.safeParse(filtered);
  return checked.success ? checked.data : null;
}

/** Options of {@link readThreadInsights}. */
export interface ReadInsightsOptions {
  /**
   * Share one read per question for this long, in ms (the question page passes its
   * thread's one-second read cache time; lib/community/read_cache.ts): what is cached does
   * not depend on the viewer, whose visibility is applied after. 0 or absent: no cache.
   */
  cacheMs?: number;
}

/**
 * Both insights of a question for `viewer`, or null when the question is unknown or not
 * theirs to see. Schedules the job when either is stale; never waits for it.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const got = await readThreadInsights({ kv, now: Date.now }, "q-abc", null);
 * got?.map.status; // "ready" | "generating" | …
 * ```
 */
export async function readThreadInsights(
  reader: InsightReader,
  questionId: string,
  viewer: Viewer | null | undefined,
  opts: ReadInsightsOptions = {},
): Promise<ThreadInsightsView | null> {
  if (!isLookupId(questionId)) return null;
  const shared = opts.cacheMs
    ? await cachedRead(
      reader.kv,
      `insights:${questionId}`,
      opts.cacheMs,
      () => loadInsights(reader, questionId),
    )
    : await loadInsights(reader, questionId);
  if (!shared || !maySee(shared.question, viewer)) return null;
  return shared.view;
}

/** What one read of a question's insights gives, before any viewer's visibility. */
interface LoadedInsights {
  question: QuestionRecord;
  view: ThreadInsightsView;
}

async function loadInsights(
  reader: InsightReader,
  questionId: string,
): Promise<LoadedInsights | null> {
  const { kv } = reader;
  const [qEntry, counter, accepted, mapEntry, summaryEntry, job] = await kv.getMany([
    keys.question(questionId),
    keys.answerCount(questionId),
    keys.acceptedAnswer(questionId),
    keys.insight(questionId, "map"),
    keys.insight(questionId, "summary"),
    keys.job("insights", questionId),
  ]);
  const q = qEntry.value as QuestionRecord | null;
  if (!q) return null;
  const now: ThreadNow = {
    answers: counterValue(counter.value),
    accepted: (accepted.value as string | null) ?? null,
  };
  const map = mapEntry.value as StoredMap | null;
  const summary = summaryEntry.value as StoredSummary | null;
  const basis = [
    ...new Set([...(map?.value ? map.basis : []), ...(summary?.value ? summary.basis : [])]),
  ];
  const records = await getAll<MessageRecord>(kv, basis.map(keys.message));
  const gone = new Set(
    basis.filter((_, i) => {
      const m = records[i].value;
      return !m || !isInsightAnswer(m);
    }),
  );
  const t = reader.now();
  const withdrawn = (c: StoredMap | StoredSummary | null) =>
    !!c?.value && c.basis.some((id) => gone.has(id));
  const stale = {
    map: wantsRefresh("map", map, now, withdrawn(map), t),
    summary: wantsRefresh("summary", summary, now, withdrawn(summary), t),
  };
  const canWrite = reader.llm !== undefined && isPublic(q);
  let generating = job.versionstamp !== null;
  if (!generating && canWrite && (stale.map || stale.summary)) {
    // Created here, or by another request a moment before: either way it is under way.
    await scheduleInsights(kv, questionId);
    generating = true;
  }
  const status = (
    kind: InsightKind,
    c: StoredMap | StoredSummary | null,
    served: boolean,
  ): InsightStatusValue => {
    const min = kind === "map" ? MAP_MIN_ANSWERS : SUMMARY_MIN_ANSWERS;
    if (generating && stale[kind]) return "generating";
    if (!served && now.answers < min) return "too_few_answers";
    if (c?.retryAt !== undefined && c.retryAt > t) return "unavailable";
    if (stale[kind]) return "unavailable"; // stale, and no model here to write a new one
    // The counter says enough, but some of those answers are hidden or "[deleted]".
    if (!served && c?.value === null && c.messageCount < min) return "too_few_answers";
    return "ready";
  };
  const shownMap = map?.value ? withoutAnswers(map.value, gone) : null;
  const shownSummary: ThreadSummaryValue | null = summary?.value && !withdrawn(summary)
    ? summary.value
    : null;
  const view: ThreadInsightsView = {
    map: {
      map: shownMap,
      messageCount: shownMap ? map!.messageCount : now.answers,
      generatedAt: shownMap ? map!.generatedAt : null,
      status: status("map", map, shownMap !== null),
      aiGenerated: true,
    },
    summary: {
      summary: shownSummary,
      messageCount: shownSummary ? summary!.messageCount : now.answers,
      generatedAt: shownSummary ? summary!.generatedAt : null,
      status: status("summary", summary, shownSummary !== null),
      aiGenerated: true,
    },
    standIn: { map: !!map?.standIn, summary: !!summary?.standIn },
    summaryAnswers: shownSummary ? summary!.basis.length : 0,
  };
  return { question: q, view };
}

/**
 * Opinion maps and thread summaries, the model: what is cached per question, and the
 * rules of when one is (re)written.
 *
 * - **Answers** are people's and agents' top-level answers: not the AI panel's messages,
 *   not hidden or deleted ones (lib/community/visibility.ts `isPublic`: what a model is
 *   shown is public).
 * - **Map**: none under {@link MAP_MIN_ANSWERS}; rewritten once the thread has grown by
 *   {@link MAP_GROWTH} answers since the last one.
 * - **Summary**: none under {@link SUMMARY_MIN_ANSWERS}; rewritten once the thread has
 *   grown by {@link summaryGrowth} (3 answers, or a quarter more on a long thread), or the
 *   accepted answer changed.
 * - Either is rewritten at once when an answer it was made from has been hidden or
 *   deleted, and is not served meanwhile with that answer in it.
 *
 * Growth is measured on the question's answer counter (`["answer_counts", id]`, one read):
 * it counts what the thread page says "N answers" of, hidden answers and "[deleted]"
 * placeholders included, so it is an upper bound of the answers a map can use; the job
 * counts the real ones when it writes.
 *
 * @module
 */
import type { OpinionMapValue, ThreadSummaryValue } from "../schemas/insights.ts";

/** The two insights of a thread. */
export type InsightKind = "map" | "summary";

/** Fewest answers for a map. */
export const MAP_MIN_ANSWERS = 3;
/** New answers since the last map that make a new one. */
export const MAP_GROWTH = 2;
/** Fewest answers for a summary. */
export const SUMMARY_MIN_ANSWERS = 8;

/** The job kind (one job per question: its id is the question id). */
export const INSIGHTS_JOB = "insights";

/** How long to wait after a model failure before trying again. */
export const FAILURE_BACKOFF_MS = 10 * 60_000;

/**
 * New answers since the last summary that make a new one: 3, or a quarter of the answers it
 * was made from on a long thread (20 → 5, 100 → 25), so a busy thread is not summarized
 * after every few answers.
 *
 * @example
 * ```ts
 * summaryGrowth(8); // 3
 * summaryGrowth(100); // 25
 * ```
 */
export function summaryGrowth(answersAtGeneration: number): number {
  return Math.max(3, Math.ceil(answersAtGeneration / 4));
}

/** One cached insight, `["insights", questionId, kind]`. */
export interface StoredInsight<T> {
  /** The map or summary; null when the thread had too few answers. */
  value: T | null;
  /** Answers it was made from (null value: the answers counted then). */
  messageCount: number;
  /** Unix ms it was written (null value: when the count was taken). */
  generatedAt: number;
  /** The question's answer counter when it was written: growth is measured from it. */
  counterAt: number;
  /** The accepted answer then (a summary names its point). */
  acceptedAt: string | null;
  /** Ids of the answers shown to the model: if one is withdrawn, this one is not served. */
  basis: string[];
  /** The answers' ids and revisions: the same material is not sent to the model twice. */
  signature: string;
  /** No new attempt before this (Unix ms): today's budget is spent, or the model failed. */
  retryAt?: number;
  /** Written by the offline stand-in model (local mode). */
  standIn?: true;
}

/** A cached map. */
export type StoredMap = StoredInsight<OpinionMapValue>;
/** A cached summary. */
export type StoredSummary = StoredInsight<ThreadSummaryValue>;

/** What the thread looks like now, from its counters (one `getMany`). */
export interface ThreadNow {
  /** The answer counter (`answer_counts`). */
  answers: number;
  accepted: string | null;
}

/**
 * Whether a new `kind` should be written for a thread that looks like `now`, given the
 * cached one (none: `null`) and whether an answer it was made from is withdrawn.
 *
 * @example
 * ```ts
 * wantsRefresh("map", null, { answers: 3, accepted: null }, false, Date.now()); // true
 * wantsRefresh("map", null, { answers: 2, accepted: null }, false, Date.now()); // false
 * ```
 */
export function wantsRefresh(
  kind: InsightKind,
  cached: StoredInsight<unknown> | null,
  now: ThreadNow,
  withdrawn: boolean,
  at: number,
): boolean {
  const min = kind === "map" ? MAP_MIN_ANSWERS : SUMMARY_MIN_ANSWERS;
  if (cached?.retryAt !== undefined && cached.retryAt > at) return false;
  if (withdrawn) return true;
  if (now.answers < min) {
    // Too few now: only a cached one that still shows something needs rewriting (to null),
    // and the withdrawal check above already caught that case.
    return false;
  }
  if (!cached) return true;
  if (cached.value === null) return now.answers !== cached.counterAt;
  const growth = now.answers - cached.counterAt;
  if (kind === "map") return growth >= MAP_GROWTH;
  return growth >= summaryGrowth(cached.messageCount) || now.accepted !== cached.acceptedAt;
}

/**
 * Statistics, contribution score and badges. Every figure is a counter kept by the
 * write that changes it (docs/interface.md#profiles weights: question 5, answer 3, upvote received 1,
 * debate 10); badges are recorded with the time they were earned, by the same writes,
 * so reading a profile never scans.
 *
 * @module
 */
import { commit } from "../kv/atomic.ts";
import { keys, type UserStatName } from "../kv/keys.ts";
import { readUserStats, type UserStats } from "./user_stats.ts";

/** A user's raw counters (lib/profile/user_stats.ts). */
export type StatCounters = UserStats;
type StatName = UserStatName;

/** docs/interface.md#profiles's statistics fields. */
export interface Statistics {
  questionsCount: number;
  answersCount: number;
  debatesCount: number;
  upvotesReceived: number;
  favoritesReceived: number;
  contributionScore: number;
}

/**
 * The contribution score.
 *
 * @example
 * ```ts
 * contributionScore({ questions: 2, answers: 1, upvotesReceived: 4, debates: 1 }); // 27
 * ```
 */
export function contributionScore(
  s: { questions: number; answers: number; upvotesReceived: number; debates: number },
): number {
  return s.questions * 5 + s.answers * 3 + s.upvotesReceived + s.debates * 10;
}

/** A badge's rule: which counter, and the threshold that earns it. */
export interface BadgeRule {
  id: string;
  name: string;
  description: string;
  stat: StatName;
  threshold: number;
}

/** The six badges of docs/interface.md#profiles. */
export const BADGES: readonly BadgeRule[] = [
  {
    id: "first-question",
    name: "First Question",
    description: "Ask a first question",
    stat: "questions",
    threshold: 1,
  },
  {
    id: "helpful-answer",
    name: "Helpful Answer",
    description: "Get 10 upvotes on one answer",
    stat: "best_answer_upvotes",
    threshold: 10,
  },
  {
    id: "debater",
    name: "Debater",
    description: "Win a first debate",
    stat: "debate_wins",
    threshold: 1,
  },
  {
    id: "popular-question",
    name: "Popular Question",
    description: "Ask a question that gets 50 or more upvotes",
    stat: "best_question_upvotes",
    threshold: 50,
  },
  {
    id: "prolific",
    name: "Prolific",
    description: "Post 100 answers",
    stat: "answers",
    threshold: 100,
  },
  {
    id: "crowd-favorite",
    name: "Crowd Favorite",
    description: "Receive 500 upvotes in total",
    stat: "upvotes_received",
    threshold: 500,
  },
];

/** A badge as shown on a profile. */
export interface BadgeStatus {
  id: string;
  name: string;
  description: string;
  earned: boolean;
  /** Unix ms when earned, or null. */
  earnedAt: number | null;
  progress: { current: number; target: number };
}

/** docs/interface.md#profiles statistics from counters. */
export function statisticsFrom(c: StatCounters): Statistics {
  return {
    questionsCount: c.questions,
    answersCount: c.answers,
    debatesCount: c.debates,
    upvotesReceived: c.upvotes_received,
    favoritesReceived: c.favorites_received,
    contributionScore: contributionScore({
      questions: c.questions,
      answers: c.answers,
      upvotesReceived: c.upvotes_received,
      debates: c.debates,
    }),
  };
}

/** Badge statuses from counters and the recorded earn times. */
export function badgeStatuses(
  c: StatCounters,
  earned: Record<string, number>,
): BadgeStatus[] {
  return BADGES.map((b) => {
    const current = Math.max(0, c[b.stat]);
    const at = earned[b.id] ?? null;
    return {
      id: b.id,
      name: b.name,
      description: b.description,
      earned: at !== null || current >= b.threshold,
      earnedAt: at,
      progress: { current: Math.min(current, b.threshold), target: b.threshold },
    };
  });
}

/** When each badge was earned, by id. */
export async function readEarnedBadges(
  kv: Deno.Kv,
  userId: string,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for await (const e of kv.list<number>({ prefix: keys.badgePrefix(userId) })) {
    out[String(e.key.at(-1))] = e.value;
  }
  return out;
}

/**
 * Record badges the user's counters now qualify for, stamped `now`; called by the
 * writes that move counters. A badge, once earned, is kept (an unvote does not take it
 * back) and its time is never overwritten. `known` are the counters when the caller has
 * just read them (lib/profile/user_stats.ts `userStatKeys`, with reads of its own); left
 * out, they are read.
 *
 * @example
 * ```ts
 * declare const authorId: string;
 * declare const kv: Deno.Kv;
 * await recordEarnedBadges(kv, authorId, Date.now());
 * ```
 */
export async function recordEarnedBadges(
  kv: Deno.Kv,
  userId: string,
  now: number,
  known?: StatCounters,
): Promise<string[]> {
  const counters = known ?? await readUserStats(kv, userId);
  const due = BADGES.filter((b) => counters[b.stat] >= b.threshold);
  if (due.length === 0) return [];
  const existing = await kv.getMany(due.map((b) => keys.badge(userId, b.id)));
  const fresh = due.filter((_, i) => existing[i].versionstamp === null);
  for (const b of fresh) {
    // One check per badge: a racing writer that recorded it first wins, which is fine.
    await commit(kv, (op) =>
      op.check({ key: keys.badge(userId, b.id), versionstamp: null }).set(
        keys.badge(userId, b.id),
        now,
      ));
  }
  return fresh.map((b) => b.id);
}

/**
 * Per-user statistics kept as counters (lib/kv/keys.ts `user_stats`), written by the
 * question, message, vote and favorite paths in the same ops as the changes that cause
 * them — so profiles and badges read six counters and never scan.
 *
 * @module
 */
import { readCounters } from "../kv/atomic.ts";
import { keys, type UserStatName } from "../kv/keys.ts";

/** A user's statistics. */
export type UserStats = Record<UserStatName, number>;

const NAMES: UserStatName[] = [
  "questions",
  "answers",
  "upvotes_received",
  "favorites_received",
  "best_question_upvotes",
  "best_answer_upvotes",
  "debates",
  "debate_wins",
  "answer_accepted",
];

/**
 * Read all statistics of a user in one round trip (missing counters are 0).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * const s = await readUserStats(kv, userId);
 * s.upvotes_received; s.best_answer_upvotes >= 10; // "Helpful Answer"
 * ```
 */
export async function readUserStats(kv: Deno.Kv, userId: string): Promise<UserStats> {
  return userStatsOf(await readCounters(kv, userStatKeys(userId)));
}

/**
 * The keys of a user's statistics, in the order {@link userStatsOf} reads their values:
 * for a caller that reads them together with keys of its own, in one round trip.
 *
 * @example
 * ```ts
 * import { readCounters } from "@/lib/kv/atomic.ts";
 * declare const kv: Deno.Kv;
 * const statKeys = userStatKeys("u1");
 * const values = await readCounters(kv, [...statKeys, ["vote_counts", "question", "q1", "up"]]);
 * const stats = userStatsOf(values); // the extra value after them is left alone
 * ```
 */
export function userStatKeys(userId: string): Deno.KvKey[] {
  return NAMES.map((n) => keys.userStat(userId, n));
}

/** A user's statistics from the counter values of {@link userStatKeys}, in order. */
export function userStatsOf(values: number[]): UserStats {
  return Object.fromEntries(NAMES.map((n, i) => [n, values[i]])) as UserStats;
}

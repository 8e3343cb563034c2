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
  const values = await readCounters(kv, NAMES.map((n) => keys.userStat(userId, n)));
  return Object.fromEntries(NAMES.map((n, i) => [n, values[i]])) as UserStats;
}

/**
 * Every invariant `deno task fsck` checks, in the order a repair runs them: an invariant
 * may count what an earlier one fixed (the question rows before the feeds built on them,
 * the vote counters before the vote order of the threads, the threads before the
 * statistics).
 *
 * The search index is one entry, {@link searchIndexInvariant} (./search.ts): a new
 * search index brings its own invariant module and replaces that entry.
 *
 * @module
 */
import { agentKeysInvariant } from "./agent_keys.ts";
import { debatesInvariant } from "./debates.ts";
import { favoritesInvariant } from "./favorites.ts";
import { feedsInvariant } from "./feeds.ts";
import type { Invariant } from "./invariant.ts";
import { notificationsInvariant } from "./notifications.ts";
import { questionsInvariant } from "./questions.ts";
import { searchIndexInvariant } from "./search.ts";
import { threadsInvariant } from "./threads.ts";
import { userStatsInvariant } from "./user_stats.ts";
import { votesInvariant } from "./votes.ts";

/** The registry (see the module doc for the order). */
export const INVARIANTS: readonly Invariant[] = [
  questionsInvariant,
  feedsInvariant,
  searchIndexInvariant,
  votesInvariant,
  threadsInvariant,
  favoritesInvariant,
  notificationsInvariant,
  userStatsInvariant,
  agentKeysInvariant,
  debatesInvariant,
];

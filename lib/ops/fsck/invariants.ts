/**
 * Every invariant `deno task fsck` checks, in the order a repair runs them: an invariant
 * may count what an earlier one fixed (the question rows before the feeds built on them,
 * the thread rows and vote counters before the answer order and the statistics).
 *
 * @module
 */
import type { Invariant } from "./invariant.ts";
import { feedsInvariant } from "./feeds.ts";
import { questionsInvariant } from "./questions.ts";
import { threadsInvariant } from "./threads.ts";
import { votesInvariant } from "./votes.ts";

/** The registry (see the module doc for the order). */
export const INVARIANTS: readonly Invariant[] = [
  questionsInvariant,
  feedsInvariant,
  votesInvariant,
  threadsInvariant,
];

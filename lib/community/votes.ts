/**
 * Up/down votes on questions and messages (SPEC.md's vote table).
 *
 * Hot items never serialize (DESIGN.md §5): a vote checks only the voter's own key
 * `["votes", type, id, userId]`, and moves the counts with `sum` counters, which never
 * conflict. `likedBy`/`dislikedBy` are those per-voter keys, listed when served.
 * The same op moves the voter's activity index and the author's `upvotes_received`.
 *
 * @module
 */
import { afterCommit } from "../kv/after_commit.ts";
import { addToCounter, commit, invertTime, readCounters, updateAtomically } from "../kv/atomic.ts";
import { budgetOf, type PostingLimits, type RateLimited, spendInOp } from "../limits/posting.ts";
import type { HitLog } from "../limits/window.ts";
import { recordEarnedBadges } from "../profile/stats.ts";
import { invalidateReads } from "./read_cache.ts";
import { keys } from "../kv/keys.ts";
import { findTarget, type TargetType } from "./targets.ts";
import { isExpertAuthor } from "../panel/experts.ts";
import { nextVote, type VoteAction, type VoteType } from "./vote_table.ts";

export { nextVote, type VoteAction, type VoteType } from "./vote_table.ts";
/** The vote types, for validation. */
export const VOTE_TYPES = ["up", "down"] as const;

/** A voter's current vote, under `["votes", type, id, userId]`. */
export interface VoteRecord {
  voteType: VoteType;
  createdAt: number;
}

/** The voter's activity entry, under `["user_votes", userId, inv, type, id]`. */
export interface UserVoteEntry {
  targetType: TargetType;
  targetId: string;
  voteType: VoteType;
  createdAt: number;
}

/** The response of `/api/likes` and the agent vote endpoint (SPEC.md). */
export interface VoteResult {
  action: VoteAction;
  upvotes: number;
  downvotes: number;
  liked: boolean;
  downvoted: boolean;
}

/**
 * A cast vote, or `not_found` when the target does not exist, or `own_post` when the
 * voter wrote it (DESIGN.md §9: no self-votes, so nobody raises their own score).
 */
export type CastVoteResult =
  | { ok: true; vote: VoteResult }
  | { ok: false; reason: "not_found" | "own_post" }
  | RateLimited;

/** Input of {@link castVote}. */
export interface VoteInput {
  userId: string;
  targetType: TargetType;
  targetId: string;
  voteType: VoteType;
}

/**
 * Apply one vote request; null when the target does not exist.
 *
 * @example
 * ```ts
 * declare const id: string;
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * const r = await castVote(kv, { userId, targetType: "question", targetId: id, voteType: "up" });
 * if (r.ok) r.vote.action; // "liked"
 * ```
 */
export async function castVote(
  kv: Deno.Kv,
  input: VoteInput,
  now = Date.now(),
  { limits }: { limits?: PostingLimits } = {},
): Promise<CastVoteResult> {
  const { userId, targetType, targetId, voteType } = input;
  const target = await findTarget(kv, targetType, targetId);
  if (!target) return { ok: false, reason: "not_found" };
  if (target.authorId === userId) return { ok: false, reason: "own_post" };
  // Votes and favorites share one budget (`votes`), spent in the vote's own atomic op.
  const budget = budgetOf(limits, "votes", userId);
  const voteKey = keys.vote(targetType, targetId, userId);
  const outcome = await updateAtomically<ReturnType<typeof nextVote> | RateLimited>(async () => {
    const [cur, log] = await kv.getMany<[VoteRecord, HitLog]>([
      voteKey,
      budget?.key ?? keys.rateLimitLog("none", "none"),
    ]);
    const prev = cur.value?.voteType ?? null;
    const step = nextVote(prev, voteType);
    const op = kv.atomic().check(cur);
    const refused = budget && spendInOp(op, log, budget, now);
    if (refused) return { op: null, result: refused };
    const oldIndex = cur.value
      ? keys.userVote(userId, invertTime(cur.value.createdAt), targetType, targetId)
      : null;
    const newIndex = step.next
      ? keys.userVote(userId, invertTime(now), targetType, targetId)
      : null;
    if (prev) addToCounter(op, keys.voteCount(targetType, targetId, prev), -1);
    if (oldIndex && !(newIndex && sameKey(oldIndex, newIndex))) op.delete(oldIndex);
    if (step.next && newIndex) {
      addToCounter(op, keys.voteCount(targetType, targetId, step.next), 1);
      op.set(voteKey, { voteType: step.next, createdAt: now } satisfies VoteRecord);
      op.set(newIndex, { targetType, targetId, voteType: step.next, createdAt: now });
    } else {
      op.delete(voteKey);
    }
    const received = (step.next === "up" ? 1 : 0) - (prev === "up" ? 1 : 0);
    // An AI expert's message: the counts move, no one's statistics do.
    if (received !== 0 && !isExpertAuthor(target.authorId)) {
      addToCounter(op, keys.userStat(target.authorId, "upvotes_received"), received);
    }
    return { op, result: step };
  });
  if ("reason" in outcome) return outcome;
  const { action, next } = outcome;
  const bestStat = targetType === "question" ? "best_question_upvotes" : "best_answer_upvotes";
  const bestKey = keys.userStat(target.authorId, bestStat);
  const [upvotes, downvotes, best] = await readCounters(kv, [
    keys.voteCount(targetType, targetId, "up"),
    keys.voteCount(targetType, targetId, "down"),
    bestKey,
  ]);
  // After the commit: nothing here may fail the request (the vote stands).
  await afterCommit("vote peak, caches and badges", async () => {
    if (action === "liked" && upvotes > best && !isExpertAuthor(target.authorId)) {
      // The best count a user's question/answer reached, for badges. `max` never conflicts;
      // every liker that sees a new peak after its own vote writes it, so the peak is kept,
      // and on a busy item most likes find the peak already recorded and write nothing.
      await commit(kv, (op) => op.max(bestKey, BigInt(upvotes)));
    }
    invalidateReads(kv); // vote counts in the feed
    // A like can earn the author a badge (Helpful Answer, Popular Question, Crowd Favorite).
    if (action === "liked" && !isExpertAuthor(target.authorId)) {
      await recordEarnedBadges(kv, target.authorId, now);
    }
  });
  return {
    ok: true,
    vote: { action, upvotes, downvotes, liked: next === "up", downvoted: next === "down" },
  };
}

function sameKey(a: Deno.KvKey, b: Deno.KvKey): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

/**
 * Who voted on a target: `likedBy` and `dislikedBy` user ids (from the per-voter keys).
 *
 * @example
 * ```ts
 * declare const id: string;
 * declare const kv: Deno.Kv;
 * const { likedBy, dislikedBy } = await listVoters(kv, "question", id);
 * ```
 */
export async function listVoters(
  kv: Deno.Kv,
  targetType: TargetType,
  targetId: string,
): Promise<{ likedBy: string[]; dislikedBy: string[] }> {
  const likedBy: string[] = [];
  const dislikedBy: string[] = [];
  for await (const e of kv.list<VoteRecord>({ prefix: keys.votesPrefix(targetType, targetId) })) {
    const userId = e.key[e.key.length - 1] as string;
    (e.value.voteType === "up" ? likedBy : dislikedBy).push(userId);
  }
  return { likedBy, dislikedBy };
}

/**
 * A user's votes on some targets: id → "up" | "down" (absent when none).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * const mine = await userVotesOn(kv, userId, "message", ["m1", "m2"]);
 * ```
 */
export async function userVotesOn(
  kv: Deno.Kv,
  userId: string,
  targetType: TargetType,
  ids: string[],
): Promise<Record<string, VoteType>> {
  const out: Record<string, VoteType> = {};
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += 10) chunks.push(ids.slice(i, i + 10));
  await Promise.all(chunks.map(async (chunk) => {
    const entries = await kv.getMany<VoteRecord[]>(
      chunk.map((id) => keys.vote(targetType, id, userId)),
    );
    entries.forEach((e, i) => {
      if (e.value) out[chunk[i]] = e.value.voteType;
    });
  }));
  return out;
}

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
import { afterUpvote, bumpQuestion } from "../notifications/hooks.ts";
import { afterCommit } from "../kv/after_commit.ts";
import { batched, type Batcher, batcher } from "../kv/batch.ts";
import { addToCounter, counterValue, invertTime, updateAtomically } from "../kv/atomic.ts";
import { budgetOf, type PostingLimits, type RateLimited, spendInOp } from "../limits/posting.ts";
import type { HitLog } from "../limits/window.ts";
import { recordEarnedBadges } from "../profile/stats.ts";
import { invalidateReads } from "./read_cache.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import { type TargetInfo, type TargetType } from "./targets.ts";
import type { MessageRecord } from "./messages.ts";
import type { QuestionRecord } from "./questions/model.ts";
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
  if (!isLookupId(targetId)) return { ok: false, reason: "not_found" };
  // Votes and favorites share one budget (`votes`), spent in the vote's own atomic op.
  const budget = budgetOf(limits, "votes", userId);
  const voteKey = keys.vote(targetType, targetId, userId);
  const upKey = keys.voteCount(targetType, targetId, "up");
  const downKey = keys.voteCount(targetType, targetId, "down");
  let target: TargetInfo | null = null;
  let counts = { up: 0, down: 0 };
  const outcome = await updateAtomically<
    ReturnType<typeof nextVote> | RateLimited | { ok: false; reason: "not_found" | "own_post" }
  >(async () => {
    // One read for everything the vote needs: the target, the voter's vote, the budget
    // and the counts the answer reports.
    const [record, cur, log, up, down] = await kv.getMany<
      [QuestionRecord | MessageRecord, VoteRecord, HitLog, Deno.KvU64, Deno.KvU64]
    >([
      targetType === "question" ? keys.question(targetId) : keys.message(targetId),
      voteKey,
      budget?.key ?? keys.rateLimitLog("none", "none"),
      upKey,
      downKey,
    ]);
    target = targetOf(targetType, targetId, record.value);
    if (!target) return { op: null, result: { ok: false as const, reason: "not_found" as const } };
    // No self-votes (DESIGN.md §9): nobody raises their own score.
    if (target.authorId === userId) {
      return { op: null, result: { ok: false as const, reason: "own_post" as const } };
    }
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
    counts = { up: counterValue(up.value), down: counterValue(down.value) };
    if (prev) {
      addToCounter(op, keys.voteCount(targetType, targetId, prev), -1);
      counts[prev]--;
    }
    if (oldIndex && !(newIndex && sameKey(oldIndex, newIndex))) op.delete(oldIndex);
    if (step.next && newIndex) {
      addToCounter(op, keys.voteCount(targetType, targetId, step.next), 1);
      counts[step.next]++;
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
    bumpQuestion(op, target.questionId); // the live question page
    if (step.next === "up" && !isExpertAuthor(target.authorId)) {
      // The peak up-vote count the author's question/answer reached, for badges: `max`
      // never conflicts and joins the vote's own commit.
      op.max(
        keys.userStat(target.authorId, bestStatOf(targetType)),
        BigInt(Math.max(0, counts.up)),
      );
    }
    return { op, result: step };
  });
  if ("reason" in outcome) return outcome;
  const { action, next } = outcome;
  const author = (target as TargetInfo | null)!.authorId;
  // After the commit: nothing here may fail the request (the vote stands). The counts are
  // the ones the commit moved from (no second read): votes committed concurrently by others
  // may be missing from this answer, never from the stored counters.
  invalidateReads(kv); // vote counts in the feed
  if (action === "liked" && !isExpertAuthor(author)) {
    const liked = (target as TargetInfo | null)!;
    // Grouped per author / per liked post (lib/kv/batch.ts): a crowd liking one post costs
    // about two peak-and-badge checks and two notification writes, not one each, and the
    // voter still answers after work that saw its own like.
    await Promise.all([
      afterCommit(
        "vote peak and badges",
        () => batched(peakChecks(kv), author, { targetType, targetId, now }),
      ),
      afterCommit(
        "upvote notification",
        () => batched(upvoteNotices(kv), `${targetType}\u0000${targetId}`, { target: liked, now }),
      ),
    ]);
  }
  return {
    ok: true,
    vote: {
      action,
      upvotes: Math.max(0, counts.up),
      downvotes: Math.max(0, counts.down),
      liked: next === "up",
      downvoted: next === "down",
    },
  };
}

function bestStatOf(type: TargetType): "best_question_upvotes" | "best_answer_upvotes" {
  return type === "question" ? "best_question_upvotes" : "best_answer_upvotes";
}

function targetOf(
  type: TargetType,
  id: string,
  record: QuestionRecord | MessageRecord | null,
): TargetInfo | null {
  // A deleted or hidden post is not a target (as in `findTarget`).
  if (!record || record.deletedAt !== undefined || record.hiddenAt !== undefined) return null;
  if (type === "question") {
    const q = record as QuestionRecord;
    return { type, id, authorId: q.author.id, questionId: q.id };
  }
  const m = record as MessageRecord;
  return { type, id, authorId: m.author.id, questionId: m.questionId };
}

/**
 * The peak up-vote count of an author's posts, confirmed against the committed counters
 * (the in-op `max` saw only each voter's read; concurrent likes may have gone higher), then
 * the author's badges: one run per author at a time for all likes that arrived meanwhile.
 */
const peakChecks = perStore((kv) =>
  batcher<{ targetType: TargetType; targetId: string; now: number }>(async (author, likes) => {
    const seen = new Map<string, { targetType: TargetType; targetId: string }>();
    for (const l of likes) seen.set(`${l.targetType}\u0000${l.targetId}`, l);
    const targets = [...seen.values()].slice(0, 8);
    const best = (["question", "answer"] as const).map((k) =>
      keys.userStat(author, k === "question" ? "best_question_upvotes" : "best_answer_upvotes")
    );
    const got = await kv.getMany<Deno.KvU64[]>([
      ...best,
      ...targets.map((t) => keys.voteCount(t.targetType, t.targetId, "up")),
    ]);
    const peaks = [counterValue(got[0].value), counterValue(got[1].value)];
    const higher = [0, 0];
    targets.forEach((t, i) => {
      const j = t.targetType === "question" ? 0 : 1;
      higher[j] = Math.max(higher[j], counterValue(got[2 + i].value));
    });
    let op: Deno.AtomicOperation | null = null;
    for (const j of [0, 1]) {
      if (higher[j] > peaks[j]) op = (op ?? kv.atomic()).max(best[j], BigInt(higher[j]));
    }
    if (op) await op.commit();
    await recordEarnedBadges(kv, author, Math.max(...likes.map((l) => l.now)));
  })
);

/** Upvote notifications of one liked post: one write for every like that arrived meanwhile. */
const upvoteNotices = perStore((kv) =>
  batcher<{ target: TargetInfo; now: number }>(async (_key, likes) => {
    const { target, now } = likes[likes.length - 1];
    await afterUpvote(kv, target, "", now, likes.length);
  })
);

/** One batcher per store (tests run many stores in one process). */
function perStore<T>(make: (kv: Deno.Kv) => Batcher<T>): (kv: Deno.Kv) => Batcher<T> {
  const made = new WeakMap<Deno.Kv, Batcher<T>>();
  return (kv) => {
    let b = made.get(kv);
    if (!b) made.set(kv, b = make(kv));
    return b;
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

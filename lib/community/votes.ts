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
  await afterCommit("vote caches and badges", async () => {
    invalidateReads(kv); // vote counts in the feed
    // A like can earn the author a badge (Helpful Answer, Popular Question, Crowd Favorite);
    // concurrent likes of one author's posts share one check.
    if (action === "liked" && !isExpertAuthor(author)) {
      // The in-op `max` saw only this voter's read; concurrent likes may have gone higher,
      // so the peak is confirmed against the committed counter (written only when higher).
      const bestKey = keys.userStat(author, bestStatOf(targetType));
      const [up, best] = await kv.getMany<[Deno.KvU64, Deno.KvU64]>([upKey, bestKey]);
      const peak = counterValue(up.value);
      if (peak > counterValue(best.value)) {
        await kv.atomic().max(bestKey, BigInt(peak)).commit();
      }
      await sharedBadgeCheck(kv, author, now);
    }
  });
  if (action === "liked" && !isExpertAuthor(author)) {
    const liked = (target as TargetInfo | null)!;
    await afterCommit("upvote notification", () => afterUpvote(kv, liked, userId, now));
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

const badgeChecks = new Map<string, Promise<unknown>>();

/** One badge check per author at a time; a like arriving while one runs joins it. */
function sharedBadgeCheck(kv: Deno.Kv, authorId: string, now: number): Promise<unknown> {
  const running = badgeChecks.get(authorId);
  if (running) return running;
  const p = recordEarnedBadges(kv, authorId, now).finally(() => badgeChecks.delete(authorId));
  badgeChecks.set(authorId, p);
  return p;
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

/**
 * Up/down votes on questions and messages (docs/interface.md#votes's vote table).
 *
 * Hot items never serialize (docs/decisions.md#storage): a vote checks only the voter's own key
 * `["votes", type, id, userId]`, and moves the counts with `sum` counters, which never
 * conflict. `likedBy`/`dislikedBy` are those per-voter keys, listed when served.
 * The same op moves the voter's activity index and the author's `upvotes_received`.
 *
 * One SQLite writer commits every op, so a crowd of votes waiting one commit each left the
 * process idle: votes are group-committed (lib/kv/group_commit.ts) — those arriving while a
 * commit is in flight go out as one op (each keeps its own checks; one `sum` per counter),
 * at most {@link MAX_VOTES_PER_GROUP} per op and one per voter; a group that fails a check
 * sends its votes round again with a fresh read (after {@link MAX_ROUNDS} groups, alone
 * through the read–check–write loop).
 *
 * Reads are the other cost of a crowd (SQLite's one thread reads key by key, and ten keys
 * took as long as a commit): a vote reads its voter's own keys (the vote, the budget log;
 * the sanction only when the caller has not read it with the session), and the target's
 * shared keys (the record, the counts) once per read in flight per target
 * (lib/coalesce.ts), each vote waiting for a read that started after it arrived. A like
 * over HTTP reads the voter's keys in the session's own `getMany` ({@link voterKeys},
 * `CastVoteOptions.own`) and starts the target's read beside it ({@link startTargetRead}):
 * one round trip before the group commit.
 *
 * A vote on a top-level answer also moves the answer's `sort=votes` row
 * (./answer_order.ts) in its op: a group moves each answer's row once by the group's net
 * change, under a check on the row's pointer; the answer is the group's lane, so the next
 * group on it starts from what this one committed.
 *
 * @module
 */
import { storedVote, voteOf } from "./vote_rows.ts";
import { afterUpvote } from "../notifications/hooks.ts";
import { bumpQuestion } from "./questions/version.ts";
import { perStore } from "../cache.ts";
import { coalesce, coalescer } from "../coalesce.ts";
import { afterCommit } from "../kv/after_commit.ts";
import {
  addToCounter,
  commit,
  counterValue,
  invertTime,
  readCounters,
  updateAtomically,
} from "../kv/atomic.ts";
import { groupCommitter, submit } from "../kv/group_commit.ts";
import {
  type Budget,
  budgetOf,
  type PostingLimits,
  type RateLimited,
  spendInOp,
} from "../limits/posting.ts";
import { type HitLog, loggedBytes } from "../limits/window.ts";
import { recordEarnedBadges } from "../profile/stats.ts";
import { userStatKeys, userStatsOf } from "../profile/user_stats.ts";
import { invalidateReads } from "./read_cache.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import { findTarget, type TargetInfo, type TargetType } from "./targets.ts";
import type { MessageRecord } from "./messages/model.ts";
import type { QuestionRecord } from "./questions/model.ts";
import { isAccountAuthor } from "../account/deleted_user.ts";
import { type Restricted, restrictionOf, type Sanction } from "../moderation/sanctions.ts";
import { nextVote, type VoteAction, type VoteType } from "./vote_table.ts";
import {
  type AnswerRef,
  committedScores,
  freshestBase,
  moveAnswerScore,
  scoreBase,
  type ScorePointer,
} from "./answer_order.ts";

export { nextVote, type VoteAction, type VoteType } from "./vote_table.ts";
// The reads of who voted live apart, so pages that only read import none of the vote writes.
export { listVoters, userVotesOn } from "./voters.ts";
/** The vote types, for validation. */
export const VOTE_TYPES = ["up", "down"] as const;

/** A voter's current vote, under `["votes", type, id, userId]`. */
export interface VoteRecord {
  voteType: VoteType;
  createdAt: number;
}

/**
 * The voter's activity entry, under `["user_votes", userId, inv, type, id]`, as stores
 * before compact storage hold it; the value is now the direction alone and
 * ./user_vote_rows.ts reads both.
 */
export interface UserVoteEntry {
  targetType: TargetType;
  targetId: string;
  voteType: VoteType;
  createdAt: number;
}

/** The response of `/api/likes` and the agent vote endpoint (docs/interface.md#votes). */
export interface VoteResult {
  action: VoteAction;
  upvotes: number;
  downvotes: number;
  liked: boolean;
  downvoted: boolean;
}

/**
 * A cast vote, or `not_found` when the target does not exist, or `own_post` when the
 * voter wrote it (docs/interface.md#votes: no self-votes, so nobody raises their own score).
 */
export type CastVoteResult =
  | { ok: true; vote: VoteResult }
  | { ok: false; reason: "not_found" | "own_post" }
  | RateLimited
  | Restricted;

/** Input of {@link castVote}. */
export interface VoteInput {
  userId: string;
  targetType: TargetType;
  targetId: string;
  voteType: VoteType;
}

/** Options of {@link castVote}. */
export interface CastVoteOptions {
  /** The voter's posting limits (none: unlimited). */
  limits?: PostingLimits;
  /**
   * The voter's sanction as the caller read it in this request (the session read holds
   * it: lib/auth/sessions.ts), so the vote does not read the same key again; `null` for
   * none. Left out, the vote reads it.
   */
  sanction?: Sanction | null;
  /**
   * The entries of {@link voterKeys} as the caller read them in this request (with the
   * session: lib/auth/sessions.ts `userForSession`'s `extra`), in their order, so the vote
   * reads only its target's shared keys. Used with `sanction` only, for the vote's first
   * read: a vote whose group failed reads its own keys again.
   */
  own?: Deno.KvEntryMaybe<unknown>[];
  /**
   * The read of the target's shared keys, started by {@link startTargetRead} for this
   * vote's target while the caller read the rest (used with `own`, for the first read).
   */
  target?: TargetReadStarted | null;
}

/** A read of a vote target's shared keys, under way (see {@link startTargetRead}). */
export interface TargetReadStarted {
  targetType: TargetType;
  targetId: string;
  /** Filled when `done` resolves. */
  slot: TargetReadSlot;
  done: Promise<void>;
}

/**
 * Start reading a vote target's shared keys (its record and counts: one read per target
 * in flight, shared by the votes waiting for it) before the vote itself, so it overlaps
 * the caller's other read — the session's — instead of following it. Null for an id
 * that cannot exist. Pass it as {@link CastVoteOptions.target}; one never used costs a
 * share of one read, and its failure is then nobody's.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const target = startTargetRead(kv, { targetType: "question", targetId: "q-1" });
 * ```
 */
export function startTargetRead(
  kv: Deno.Kv,
  { targetType, targetId }: Pick<VoteInput, "targetType" | "targetId">,
): TargetReadStarted | null {
  if (!isLookupId(targetId)) return null;
  const slot: TargetReadSlot = { targetType, targetId };
  const done = coalesce(targetReads(kv), targetKey({ targetType, targetId }), slot);
  done.catch(() => {}); // awaited (and its error met) by the vote, if one comes
  return { targetType, targetId, slot, done };
}

/**
 * The voter's own keys a vote reads (and checks at commit): the vote, then the budget log
 * when `limits` limit votes. A caller that reads them early passes the entries as
 * {@link CastVoteOptions.own}; none for a target id that cannot exist.
 *
 * @example
 * ```ts
 * import { DEFAULT_LIMITS } from "@/lib/limits/posting.ts";
 * const input = { userId: "u1", targetType: "question", targetId: "q-1", voteType: "up" } as const;
 * const ownKeys = voterKeys(input, DEFAULT_LIMITS); // the vote key, the budget log
 * ```
 */
export function voterKeys(input: VoteInput, limits?: PostingLimits): Deno.KvKey[] {
  const { userId, targetType, targetId } = input;
  if (!isLookupId(targetId)) return [];
  const budget = budgetOf(limits, "votes", userId);
  const vote = keys.vote(targetType, targetId, userId);
  return budget ? [vote, budget.key] : [vote];
}

/**
 * Apply one vote request (docs/interface.md#votes's vote table): the answer, or why not.
 *
 * Two reads at once — the voter's own keys (the vote, the budget), and the target's
 * shared keys (the record, the counts) which concurrent votes on it share (see
 * {@link readVote}) — then the write joins
 * this process's vote group (lib/kv/group_commit.ts): votes arriving while a commit is in
 * flight go out together as one atomic op, each with its own checks (the voter's vote key
 * and budget log), the counters moved by one `sum` of the group's total. A group that
 * fails a check sends each of its votes round again with a fresh read (a later group), and
 * after {@link MAX_ROUNDS} groups alone through {@link castVoteAlone}, so every vote gets
 * the answer it would have had alone.
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
  { limits, sanction, own, target }: CastVoteOptions = {},
): Promise<CastVoteResult> {
  const { userId, targetId } = input;
  if (!isLookupId(targetId)) return { ok: false, reason: "not_found" };
  // Votes and favorites share one budget (`votes`), spent in the vote's own atomic op.
  const budget = budgetOf(limits, "votes", userId);
  const pre = sanction !== undefined && own && isVoterRead(own, voterKeys(input, limits))
    ? own
    : undefined;
  const started = pre && target?.targetType === input.targetType &&
      target.targetId === targetId
    ? target
    : undefined;
  const read = await readVote(kv, input, budget, now, sanction, pre, started);
  if (!read.ok) return read;
  // Over budget: the group answers rate_limited and writes nothing for it.
  const done = await submit(voteGroups(kv), {
    ...read,
    input,
    now,
    budget,
    sanction,
    round: 1,
  });
  if (!done.ok) return done;
  return await afterVote(kv, input, now, done);
}

/** Input of {@link castVoteInQuestion}: the question, or one of its messages. */
export interface QuestionVoteInput {
  userId: string;
  questionId: string;
  /** Vote on this message of the question instead of the question itself. */
  messageId?: string | null;
  voteType: VoteType;
}

/**
 * Vote on a question or on one of its messages (what an agent's vote names): the vote of
 * {@link castVote}, or `message_not_found` when `messageId` is not a message of this
 * question that can be voted on (missing, deleted, hidden, or in another question).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await castVoteInQuestion(kv, {
 *   userId: "u1",
 *   questionId: "q-abc",
 *   messageId: "msg-1",
 *   voteType: "up",
 * });
 * if (!r.ok && r.reason === "message_not_found") console.log("not in this question");
 * ```
 */
export async function castVoteInQuestion(
  kv: Deno.Kv,
  input: QuestionVoteInput,
  now = Date.now(),
  options: CastVoteOptions = {},
): Promise<CastVoteResult | { ok: false; reason: "message_not_found" }> {
  const { userId, questionId, messageId, voteType } = input;
  if (messageId) {
    const m = await findTarget(kv, "message", messageId);
    if (!m || m.questionId !== questionId) return { ok: false, reason: "message_not_found" };
  }
  return await castVote(
    kv,
    {
      userId,
      targetType: messageId ? "message" : "question",
      targetId: messageId ?? questionId,
      voteType,
    },
    now,
    options,
  );
}

/**
 * The same vote, alone: read, check, write in one op of its own, retried while another
 * writer changes the voter's keys. What a vote whose group failed a check runs.
 */
async function castVoteAlone(
  kv: Deno.Kv,
  input: VoteInput,
  now: number,
  budget: Budget | null,
  sanction: Sanction | null | undefined,
): Promise<VoteDone | NotVoted> {
  return await updateAtomically<VoteDone | NotVoted>(async () => {
    const read = await readVote(kv, input, budget, now, sanction);
    if (!read.ok) return { op: null, result: read };
    const op = kv.atomic();
    const w = writeVote(op, { ...read, input, now, budget }, read.counts);
    if ("reason" in w) return { op: null, result: w };
    for (const [key, delta] of w.sums) addToCounter(op, key, delta);
    if (read.answer && w.scoreDelta !== 0) {
      const base = scoreBase(read.answer.pointer, read.counts);
      if (base) moveAnswerScore(op, read.answer.ref, base, w.scoreDelta);
      // Moved outside the groups: the next group on it starts from its votes' reads.
      committedScores_(kv).forget(read.answer.ref.id);
    }
    if (w.max) op.max(w.max[0], BigInt(w.max[1]));
    bumpQuestion(op, read.target.questionId); // the live question page
    return {
      op,
      result: {
        ok: true,
        target: read.target,
        record: read.record,
        step: w.step,
        counts: w.counts,
      },
    };
  });
}

/** A vote that will not be written: no target, the voter's own post, or over budget. */
type NotVoted = { ok: false; reason: "not_found" | "own_post" } | RateLimited | Restricted;

/** A committed vote: its target, the table's step and the counts after it. */
interface VoteDone {
  ok: true;
  target: TargetInfo;
  /** The target's record as the vote read it. */
  record: QuestionRecord | MessageRecord;
  step: ReturnType<typeof nextVote>;
  counts: { up: number; down: number };
  /** The answer's score its group filed its row under (when the group moved it). */
  answerScore?: number;
}

/** A vote on a top-level answer: the answer's row key fields and its pointer as read. */
interface AnswerRead {
  ref: AnswerRef;
  pointer: Deno.KvEntryMaybe<ScorePointer>;
}

/** The voter's vote on the target as read: its key and stamp (checked at commit), its value. */
interface CurrentVote {
  key: Deno.KvKey;
  versionstamp: string | null;
  value: VoteRecord | null;
}

/** What one read gives a vote. */
interface VoteRead {
  ok: true;
  target: TargetInfo;
  /** The target's record as read (what the notification of a like needs). */
  record: QuestionRecord | MessageRecord;
  cur: CurrentVote;
  log: Deno.KvEntryMaybe<HitLog>;
  /** The target's counters, read in the same snapshot as everything else here. */
  counts: { up: number; down: number };
  /** Set when the target is a top-level answer (it has a `sort=votes` row). */
  answer: AnswerRead | null;
  /** Vote groups committed when the target's read started (it saw all of those). */
  epoch: number;
}

/** A vote read and decided, waiting for its group. */
interface PlannedVote extends VoteRead {
  input: VoteInput;
  now: number;
  budget: Budget | null;
  /** The voter's sanction as the caller read it (undefined: read with the vote). */
  sanction: Sanction | null | undefined;
  /** Groups this vote has been in (1 for the first). */
  round: number;
}

/** A target's keys every vote on it reads: the record, the counts, an answer's pointer. */
interface TargetRead {
  record: QuestionRecord | MessageRecord | null;
  up: Deno.KvU64 | null;
  down: Deno.KvU64 | null;
  pointer: Deno.KvEntryMaybe<ScorePointer> | null;
  epoch: number;
}

/** A vote waiting for its target's read. */
interface TargetReadSlot {
  targetType: TargetType;
  targetId: string;
  got?: TargetRead;
}

/**
 * Each store's reads of voted targets' shared keys, one per target at a time
 * (lib/coalesce.ts): a crowd voting on one post reads its record and counts about once per
 * read in flight instead of once per vote. Every vote waits for a read that started after
 * it arrived, so it sees what its own read would have seen (its voter's last vote included).
 */
const targetReads = perStore((kv) =>
  coalescer<TargetReadSlot>(async (_key, slots) => {
    const { targetType, targetId } = slots[0];
    const isMessage = targetType !== "question";
    const read: Deno.KvKey[] = [
      isMessage ? keys.message(targetId) : keys.question(targetId),
      keys.voteCount(targetType, targetId, "up"),
      keys.voteCount(targetType, targetId, "down"),
    ];
    if (isMessage) read.push(keys.answerScore(targetId)); // a question has no pointer
    // Taken before the read: every group committed by now is in what it reads.
    const epoch = voteGroups(kv).committed;
    const [record, up, down, pointer] = await kv.getMany<
      [QuestionRecord | MessageRecord, Deno.KvU64, Deno.KvU64, ScorePointer]
    >(read as [Deno.KvKey, Deno.KvKey, Deno.KvKey, Deno.KvKey]);
    const got: TargetRead = {
      record: record.value,
      up: up.value,
      down: down.value,
      pointer: pointer ?? null,
      epoch,
    };
    for (const slot of slots) slot.got = got;
  })
);

/** A stand-in log entry for a vote without a budget (nothing reads or writes it). */
const NO_LOG: Deno.KvEntryMaybe<HitLog> = {
  key: keys.rateLimitLog("none", "none"),
  value: null,
  versionstamp: null,
};

/**
 * Everything a vote needs, in two reads at once: the voter's own keys (the vote, the
 * budget log, the sanction unless the caller read it; none when the caller read them
 * all with the session) and the target's shared keys through {@link targetReads}. Only the voter's keys are checked at commit; the record and
 * counts are read as fresh as a read of the vote's own would be.
 */
async function readVote(
  kv: Deno.Kv,
  { userId, targetType, targetId }: VoteInput,
  budget: Budget | null,
  now: number,
  knownSanction: Sanction | null | undefined,
  /** The voter's own keys as the caller read them ({@link voterKeys}), if it did. */
  preread?: Deno.KvEntryMaybe<unknown>[],
  /** The target's read, started by the caller (with `preread` only). */
  started?: TargetReadStarted,
): Promise<VoteRead | NotVoted> {
  const slot: TargetReadSlot = started?.slot ?? { targetType, targetId };
  let mine: Deno.KvEntryMaybe<unknown>[];
  if (preread) {
    mine = preread;
    await (started?.done ??
      coalesce(targetReads(kv), targetKey({ targetType, targetId }), slot));
  } else {
    const own: Deno.KvKey[] = [keys.vote(targetType, targetId, userId)];
    if (budget) own.push(budget.key);
    if (knownSanction === undefined) own.push(keys.sanction(userId));
    [mine] = await Promise.all([
      kv.getMany<unknown[]>(own),
      coalesce(targetReads(kv), targetKey({ targetType, targetId }), slot),
    ]);
  }
  // Either stored shape, read into one (./vote_rows.ts); the check needs only the stamp.
  const stored = mine[0];
  const cur: CurrentVote = {
    key: stored.key,
    versionstamp: stored.versionstamp,
    value: voteOf(stored.value),
  };
  const log = budget ? mine[1] as Deno.KvEntryMaybe<HitLog> : NO_LOG;
  const sanction = knownSanction === undefined
    ? (mine[mine.length - 1] as Deno.KvEntryMaybe<Sanction>).value
    : knownSanction;
  // A silenced or suspended voter votes nowhere (docs/interface.md#sanctions).
  const restricted = restrictionOf(sanction, now);
  if (restricted) return restricted;
  const { record, up, down, pointer, epoch } = slot.got!;
  const target = targetOf(targetType, targetId, record);
  if (!target) return { ok: false, reason: "not_found" };
  // No self-votes (docs/interface.md#votes): nobody raises their own score.
  if (target.authorId === userId) return { ok: false, reason: "own_post" };
  const counts = { up: counterValue(up), down: counterValue(down) };
  const m = targetType !== "question" ? record as MessageRecord : null;
  const answer = m && !m.replyTo && pointer
    ? { ref: { id: m.id, questionId: m.questionId, createdAt: m.createdAt }, pointer }
    : null;
  return { ok: true, target, record: record!, cur, log, counts, answer, epoch };
}

/**
 * Add one vote's own checks and writes to `op` (its vote key, its activity index, its
 * budget), starting from `counts`; the counter moves, the author's peak and the question
 * to bump are returned for the caller to apply (merged across a group).
 */
function writeVote(
  op: Deno.AtomicOperation,
  p: Omit<PlannedVote, "epoch" | "counts" | "ok" | "round" | "sanction">,
  counts: { up: number; down: number },
):
  | {
    step: ReturnType<typeof nextVote>;
    counts: { up: number; down: number };
    sums: [Deno.KvKey, number][];
    max: [Deno.KvKey, number] | null;
    /** The vote's change of up − down. */
    scoreDelta: number;
  }
  | RateLimited {
  const { input: { userId, targetType, targetId, voteType }, now, budget, target, cur } = p;
  const prev = cur.value?.voteType ?? null;
  const step = nextVote(prev, voteType);
  // A refused vote adds nothing to the op (its group commits without it).
  const refused = budget && spendInOp(op, p.log, budget, now);
  if (refused) return refused;
  op.check(cur);
  const voteKey = keys.vote(targetType, targetId, userId);
  const oldIndex = cur.value
    ? keys.userVote(userId, invertTime(cur.value.createdAt), targetType, targetId)
    : null;
  const newIndex = step.next ? keys.userVote(userId, invertTime(now), targetType, targetId) : null;
  const after = { ...counts };
  const sums: [Deno.KvKey, number][] = [];
  if (prev) {
    sums.push([keys.voteCount(targetType, targetId, prev), -1]);
    after[prev]--;
  }
  if (oldIndex && !(newIndex && sameKey(oldIndex, newIndex))) op.delete(oldIndex);
  if (step.next && newIndex) {
    sums.push([keys.voteCount(targetType, targetId, step.next), 1]);
    after[step.next]++;
    op.set(voteKey, storedVote(step.next, now)); // one signed number (./vote_rows.ts)
    // The key says who, when and on what: the row keeps only the direction
    // (./user_vote_rows.ts).
    op.set(newIndex, step.next);
  } else {
    op.delete(voteKey);
  }
  const received = (step.next === "up" ? 1 : 0) - (prev === "up" ? 1 : 0);
  // An AI expert's message, a deleted account's kept post: the counts move, no one's
  // statistics do.
  const expert = !isAccountAuthor(target.authorId);
  if (received !== 0 && !expert) {
    sums.push([keys.userStat(target.authorId, "upvotes_received"), received]);
  }
  // The peak up-vote count the author's question/answer reached, for badges: `max` never
  // conflicts and joins the vote's own commit.
  const max: [Deno.KvKey, number] | null = step.next === "up" && !expert
    ? [keys.userStat(target.authorId, bestStatOf(targetType)), Math.max(0, after.up)]
    : null;
  const scoreDelta = (after.up - after.down) - (counts.up - counts.down);
  return { step, counts: after, sums, max, scoreDelta };
}

/**
 * Most votes in one group: 32 × (≤2 checks, ≤4 own writes + ≤5 merged) plus, per answer
 * voted on, 1 check and 3 writes of its `sort=votes` row (≤96 checks of KV's 100).
 */
export const MAX_VOTES_PER_GROUP = 32;

/** Groups a vote goes through (reading again after each failed one) before going alone. */
export const MAX_ROUNDS = 3;

/** The `sort=votes` pointers each store's vote groups committed (./answer_order.ts). */
const committedScores_ = perStore(() => committedScores());

/** Bytes of values a group may write (KV allows 819,200 per op; budget logs dominate). */
const MAX_GROUP_BYTES = 400_000;

/** The group committer of each store's votes. */
const voteGroups = perStore((kv) =>
  groupCommitter<PlannedVote, VoteDone | NotVoted>({
    kv,
    maxItems: MAX_VOTES_PER_GROUP,
    maxInFlight: 2,
    maxCost: MAX_GROUP_BYTES,
    // A budget log holds up to `limit` times (packed: 1–3 bytes each; see loggedBytes).
    costOf: (v) => 400 + (v.budget ? loggedBytes(v.log.value) + 100 : 0),
    // One voter per group: two of a voter's votes share the budget log (and may share the
    // vote key), so the second waits for the next group.
    keyOf: (v) => v.input.userId,
    // One group in flight per answer: the next one starts from the row this one files.
    laneOf: (v) => v.answer?.ref.id ?? null,
    build: (op, votes) => buildGroup(op, votes, committedScores_(kv)),
    committed: (votes, done, versionstamp) => {
      const scores = committedScores_(kv);
      votes.forEach((v, i) => {
        const d = done[i];
        if (v.answer && d.ok && d.answerScore !== undefined) {
          scores.record(v.answer.ref.id, d.answerScore, versionstamp);
        }
      });
    },
    // A failed group (a check lost to another writer): each vote reads again and joins a
    // later group; after MAX_ROUNDS groups it runs alone.
    single: (v) =>
      v.round < MAX_ROUNDS
        ? voteAgain(kv, v)
        : castVoteAlone(kv, v.input, v.now, v.budget, v.sanction),
  })
);

/** A vote whose group failed: read again, then into the next group. */
async function voteAgain(kv: Deno.Kv, v: PlannedVote): Promise<VoteDone | NotVoted> {
  const { input, now, budget, sanction } = v;
  const read = await readVote(kv, input, budget, now, sanction);
  if (!read.ok) return read;
  return await submit(voteGroups(kv), {
    ...read,
    input,
    now,
    budget,
    sanction,
    round: v.round + 1,
  });
}

/**
 * How this process's votes on `kv` were committed: groups committed, votes in them (of the
 * last 1,000 groups), groups that failed a check (their votes went round again).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { groups, votes } = voteCommitStats(kv); // votes / groups = the mean group size
 * ```
 */
export function voteCommitStats(kv: Deno.Kv): { groups: number; votes: number; fellBack: number } {
  const g = voteGroups(kv);
  return {
    groups: g.committed,
    votes: g.sizes.reduce((a, b) => a + b, 0),
    fellBack: g.fellBack,
  };
}

/**
 * One op for a group of votes: each vote's own checks and writes, one `sum` per counter
 * of the group's total, one `max` per peak stat, one version bump per question, one move
 * of each voted answer's `sort=votes` row by the group's net change (from the freshest
 * pointer its votes read or `scores` remembers). Each vote answers the counts before the
 * group plus the group's deltas up to and including its own.
 */
function buildGroup(
  op: Deno.AtomicOperation,
  votes: PlannedVote[],
  scores: ReturnType<typeof committedScores>,
): (VoteDone | NotVoted)[] {
  // The counts before the group, per target: the freshest read among its votes (the one
  // that started after the most groups had committed). Every vote read before the group
  // commits, so this is a committed state without any of the group's own votes; the lane
  // does no read of its own (it would wait behind the crowd's reads on the KV thread).
  const counts = new Map<string, { up: number; down: number; epoch: number }>();
  for (const v of votes) {
    const t = targetKey(v.input);
    const seen = counts.get(t);
    if (!seen || v.epoch > seen.epoch) counts.set(t, { ...v.counts, epoch: v.epoch });
  }
  const sums = new Map<string, [Deno.KvKey, number]>();
  const maxes = new Map<string, [Deno.KvKey, number]>();
  const questions = new Set<string>();
  /** Per voted answer: its votes (by index), their reads, the group's net score change. */
  const moved = new Map<string, { ref: AnswerRef; reads: AnswerBaseRead[]; votes: number[] }>();
  const answers = votes.map((v, i): VoteDone | NotVoted => {
    const t = targetKey(v.input);
    const before = counts.get(t)!;
    const w = writeVote(op, v, before);
    if ("reason" in w) return w;
    counts.set(t, { ...w.counts, epoch: before.epoch });
    if (v.answer) {
      const a = moved.get(v.answer.ref.id) ?? { ref: v.answer.ref, reads: [], votes: [] };
      a.reads.push({ pointer: v.answer.pointer, counts: v.counts, delta: w.scoreDelta });
      a.votes.push(i);
      moved.set(v.answer.ref.id, a);
    }
    for (const [key, delta] of w.sums) {
      const k = JSON.stringify(key);
      const s = sums.get(k);
      sums.set(k, [key, (s?.[1] ?? 0) + delta]);
    }
    if (w.max) {
      const k = JSON.stringify(w.max[0]);
      maxes.set(k, [w.max[0], Math.max(maxes.get(k)?.[1] ?? 0, w.max[1])]);
    }
    questions.add(v.target.questionId);
    return { ok: true, target: v.target, record: v.record, step: w.step, counts: w.counts };
  });
  for (const [key, delta] of sums.values()) if (delta !== 0) addToCounter(op, key, delta);
  for (const [key, value] of maxes.values()) op.max(key, BigInt(value));
  for (const q of questions) bumpQuestion(op, q); // the live question page
  for (const [id, a] of moved) {
    const delta = a.reads.reduce((n, r) => n + r.delta, 0);
    const known = scores.pointerOf(id);
    const base = freshestBase(
      known ? [...a.reads, { pointer: known, counts: { up: 0, down: 0 } }] : a.reads,
    );
    if (!base || delta === 0) continue;
    const score = moveAnswerScore(op, a.ref, base, delta);
    for (const i of a.votes) (answers[i] as VoteDone).answerScore = score;
  }
  return answers;
}

/** A vote's read of an answer's pointer, the counts beside it, and the vote's change. */
interface AnswerBaseRead {
  pointer: Deno.KvEntryMaybe<ScorePointer>;
  counts: { up: number; down: number };
  delta: number;
}

function targetKey({ targetType, targetId }: Pick<VoteInput, "targetType" | "targetId">): string {
  return `${targetType}\u0000${targetId}`;
}

/** After the commit: cache drops, badges, the notification, then the answer. */
async function afterVote(
  kv: Deno.Kv,
  { targetType, targetId }: VoteInput,
  now: number,
  { target, record, step: { action, next }, counts }: VoteDone,
): Promise<CastVoteResult> {
  const author = target.authorId;
  // After the commit: nothing here may fail the request (the vote stands). The counts are
  // the ones the commit moved from plus its group's moves (no second read): votes committed
  // concurrently elsewhere may be missing from this answer, never from the stored counters.
  invalidateReads(kv); // vote counts in the feed
  if (action === "liked" && isAccountAuthor(author)) {
    // Coalesced per author / per liked post (lib/coalesce.ts): a crowd liking one post costs
    // about two peak-and-badge checks and two notification writes, not one each, and the
    // voter still answers after work that saw its own like.
    await Promise.all([
      afterCommit(
        "vote peak and badges",
        () => coalesce(peakChecks(kv), author, { targetType, targetId, now }),
      ),
      afterCommit(
        "upvote notification",
        () =>
          coalesce(upvoteNotices(kv), `${targetType}\u0000${targetId}`, { target, record, now }),
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
  coalescer<{ targetType: TargetType; targetId: string; now: number }>(async (author, likes) => {
    const seen = new Map<string, { targetType: TargetType; targetId: string }>();
    for (const l of likes) seen.set(`${l.targetType}\u0000${l.targetId}`, l);
    const targets = [...seen.values()].slice(0, 8);
    // The author's statistics (the two peaks among them) and the liked posts' counts in one
    // read; the badges are judged from the same read, with any peak raised here.
    const statKeys = userStatKeys(author);
    const got = await readCounters(kv, [
      ...statKeys,
      ...targets.map((t) => keys.voteCount(t.targetType, t.targetId, "up")),
    ]);
    const stats = userStatsOf(got);
    const best = ["best_question_upvotes", "best_answer_upvotes"] as const;
    const higher = [0, 0];
    targets.forEach((t, i) => {
      const j = t.targetType === "question" ? 0 : 1;
      higher[j] = Math.max(higher[j], got[statKeys.length + i]);
    });
    const raised = [0, 1].filter((j) => higher[j] > stats[best[j]]);
    if (raised.length > 0) {
      await commit(kv, (op) => {
        for (const j of raised) op.max(keys.userStat(author, best[j]), BigInt(higher[j]));
      });
      for (const j of raised) stats[best[j]] = higher[j];
    }
    await recordEarnedBadges(kv, author, Math.max(...likes.map((l) => l.now)), stats);
  })
);

/** Upvote notifications of one liked post: one write for every like that arrived meanwhile. */
const upvoteNotices = perStore((kv) =>
  coalescer<{ target: TargetInfo; record: QuestionRecord | MessageRecord; now: number }>(
    async (_key, likes) => {
      // The latest like's read of the target: the post was there when it was voted.
      const { target, record, now } = likes[likes.length - 1];
      await afterUpvote(kv, target, "", now, likes.length, record);
    },
  )
);

/** Whether `entries` are a read of exactly `wanted` (what the vote checks at commit). */
function isVoterRead(entries: Deno.KvEntryMaybe<unknown>[], wanted: Deno.KvKey[]): boolean {
  return entries.length === wanted.length && entries.every((e, i) => sameKey(e.key, wanted[i]));
}

function sameKey(a: Deno.KvKey, b: Deno.KvKey): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

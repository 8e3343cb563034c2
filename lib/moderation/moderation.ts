/**
 * Moderation (docs/interface.md#moderation): flags, the review queue, moderator
 * actions and their log.
 *
 * - A flag: one per user and target (`["flags", …]` checked absent), never on one's own
 *   post, spending the user's daily `flags` budget (lib/limits/posting.ts) in the flag's
 *   own op. It joins the target's queue entry (count, weight, reasons, notes, flaggers);
 *   a flag weighs by its author's standing (./standing.ts: 1, or ½ from a new account), and
 *   the flag that brings the weight to 3 hides the post in the same op (`hiddenAt` on the
 *   record, `["hidden_posts", …]`). Concurrent flags conflict on the queue entry and retry,
 *   so the weight is exact.
 * - A hidden post answers 404 to everyone but its author and moderators (reads treat it as
 *   deleted: lib/community/questions/read.ts, messages/read.ts, targets.ts, thread.ts), and
 *   leaves the public counts as a deleted one does, in the hide's own op; the restore puts
 *   it back in them (./public_counts.ts).
 * - Moderator actions, each logged (`["mod_log", …]`) and each a decision that takes the
 *   post off the queue: `hide`, `restore` (un-hide), `dismiss` (the flags were unfounded:
 *   un-hide if the flags hid it), `delete` (the content lifecycle's soft delete,
 *   lib/community/questions/delete.ts / message_lifecycle.ts).
 * Every change of a post's visibility bumps its question's version (live pages).
 *
 * @module
 */
import { inSearchDocument, markForReindex, reindexSoon } from "../search/reindex.ts";
import { isPublic } from "../community/visibility.ts";
import { commit, getAll, invertTime, listNewestFirst, updateAtomically } from "../kv/atomic.ts";
import { afterCommit } from "../kv/after_commit.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import { budgetOf, type PostingLimits, type RateLimited, spendInOp } from "../limits/posting.ts";
import type { HitLog } from "../limits/window.ts";
import { idSuffix } from "../ids.ts";
import { excerpt } from "../text/excerpt.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { bumpQuestion } from "../community/questions/version.ts";
import { deleteQuestion } from "../community/questions/delete.ts";
import { deleteMessage } from "../community/message_lifecycle.ts";
import { invalidateReads } from "../community/read_cache.ts";
import { dropQuestionVector, markEmbeddingPending } from "../search/question_vectors.ts";
import type { TargetType } from "../community/targets.ts";
import type { ProfileRecord } from "../profile/profiles.ts";
import type { User } from "../auth/users.ts";
import {
  FLAG_WEIGHT_TO_HIDE,
  flagWeight,
  type Standing,
  standingFrom,
  standingKeys,
} from "./standing.ts";
import { type Restricted, restriction } from "./sanctions.ts";
import { QUEUE_LIMIT } from "./queue_size.ts";
import { putBackInCounts, takeOutOfCounts } from "./public_counts.ts";

/** Why a post is flagged. */
export type FlagReason = "spam" | "offensive" | "off_topic" | "other";
/** What a moderator can do to a post. */
export type ModAction = "hide" | "restore" | "dismiss" | "delete";

/** Notes kept per queue entry (the newest). */
const NOTES_KEPT = 5;
/** Flaggers listed per queue entry (the newest); the counts and weight cover them all. */
const FLAGGERS_KEPT = 20;

/** One user's flag of one post. */
export interface FlagRecord {
  reason: FlagReason;
  note: string | null;
  createdAt: number;
  /** The flagger's standing when flagging (absent on flags from before standings). */
  standing?: Standing;
}

/** One flagger as the queue lists them. */
export interface Flagger {
  id: string;
  name: string;
  standing: Standing;
}

/** A post waiting for a moderator. */
export interface ModQueueEntry {
  targetType: TargetType;
  targetId: string;
  questionId: string;
  authorId: string;
  flags: number;
  /** Sum of the flags' weights (absent on entries from before weights: `flags`). */
  weight?: number;
  /** The newest flaggers, newest first (absent on entries from before standings). */
  flaggers?: Flagger[];
  reasons: Partial<Record<FlagReason, number>>;
  notes: { note: string; reason: FlagReason; at: number }[];
  hidden: boolean;
  firstFlaggedAt: number;
  lastFlaggedAt: number;
}

/**
 * One moderator action, as logged: on a post, a sanction on a person (`targetType: "user"`),
 * or a debate or roundtable withdrawn or restored (./withdrawals.ts).
 */
export interface ModLogEntry {
  id: string;
  action: ModAction | "silence" | "suspend" | "lift" | "withdraw";
  targetType: TargetType | "user" | "debate" | "roundtable";
  targetId: string;
  /** The post's question; `""` for a person, a debate or a roundtable. */
  questionId: string;
  moderator: { id: string; name: string };
  at: number;
  /** A sanction's or a withdrawal's reason (not on posts). */
  reason?: string;
  /** A sanction's end, Unix ms, or null until lifted (a person only). */
  until?: number | null;
}

type PostRecord = QuestionRecord | MessageRecord;

function questionIdOf(type: TargetType, r: PostRecord): string {
  return type === "question" ? r.id : (r as MessageRecord).questionId;
}

/** The outcome of a flag. */
export type FlagResult =
  | { ok: true; hidden: boolean }
  | { ok: false; reason: "not_found" | "own_post" | "already_flagged" }
  | RateLimited
  | Restricted;

/**
 * Flag a post as `userId`.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await flagPost(kv, {
 *   userId: "u_2",
 *   targetType: "message",
 *   targetId: "msg-1",
 *   reason: "spam",
 *   note: null,
 * }, { newAccountHours: 24 });
 * if (!r.ok) r.reason; // "not_found" | "own_post" | "already_flagged" | "rate_limited"
 * ```
 */
export async function flagPost(
  kv: Deno.Kv,
  input: {
    userId: string;
    targetType: TargetType;
    targetId: string;
    reason: FlagReason;
    note: string | null;
  },
  { limits, now = Date.now(), newAccountHours = 0 }: {
    limits?: PostingLimits;
    now?: number;
    /** `NEW_ACCOUNT_HOURS` (config); 0, the default, weighs every flag fully. */
    newAccountHours?: number;
  } = {},
): Promise<FlagResult> {
  const { userId, targetType, targetId } = input;
  if (!isLookupId(targetId)) return { ok: false, reason: "not_found" };
  // A silenced or suspended person flags nothing (docs/interface.md#sanctions).
  const restricted = await restriction(kv, userId, now);
  if (restricted) return restricted;
  const budget = budgetOf(limits, "flags", userId);
  const recordKey = targetType === "question" ? keys.question(targetId) : keys.message(targetId);
  let searched = false;
  const result = await updateAtomically<FlagResult>(async () => {
    const entries = await kv.getMany([
      recordKey,
      keys.flag(targetType, targetId, userId),
      keys.modQueue(targetType, targetId),
      budget?.key ?? keys.rateLimitLog("none", "none"),
      keys.profile(userId),
      ...standingKeys(userId),
    ]);
    const [rec, flag, queue, log, profile] = entries as [
      Deno.KvEntryMaybe<PostRecord>,
      Deno.KvEntryMaybe<FlagRecord>,
      Deno.KvEntryMaybe<ModQueueEntry>,
      Deno.KvEntryMaybe<HitLog>,
      Deno.KvEntryMaybe<ProfileRecord>,
    ];
    const standingEntries = entries.slice(5);
    const r = rec.value;
    // A hidden post answers as a missing one: a flag must not confirm it exists.
    if (!r || !isPublic(r)) return { op: null, result: { ok: false, reason: "not_found" } };
    if (r.author.id === userId) return { op: null, result: { ok: false, reason: "own_post" } };
    if (flag.value) return { op: null, result: { ok: false, reason: "already_flagged" } };
    const op = kv.atomic().check(rec, flag, queue);
    const refused = budget && spendInOp(op, log, budget, now);
    if (refused) return { op: null, result: refused };
    const questionId = questionIdOf(targetType, r);
    const prev = queue.value;
    // The standing is the flagger's as this op reads it; the queue entry is checked, so
    // two flags at once cannot both add to the same old weight.
    const standing = standingFrom(standingEntries, newAccountHours, now);
    const user = standingEntries[0].value as User | null;
    const flagger: Flagger = {
      id: userId,
      name: profile.value?.displayName ?? user?.name ?? userId,
      standing,
    };
    const entry: ModQueueEntry = {
      targetType,
      targetId,
      questionId,
      authorId: r.author.id,
      flags: (prev?.flags ?? 0) + 1,
      weight: (prev?.weight ?? prev?.flags ?? 0) + flagWeight(standing),
      flaggers: [flagger, ...(prev?.flaggers ?? [])].slice(0, FLAGGERS_KEPT),
      reasons: { ...prev?.reasons, [input.reason]: (prev?.reasons[input.reason] ?? 0) + 1 },
      notes: input.note
        ? [{ note: input.note, reason: input.reason, at: now }, ...(prev?.notes ?? [])].slice(
          0,
          NOTES_KEPT,
        )
        : prev?.notes ?? [],
      hidden: r.hiddenAt !== undefined,
      firstFlaggedAt: prev?.firstFlaggedAt ?? now,
      lastFlaggedAt: now,
    };
    op.set(
      keys.flag(targetType, targetId, userId),
      {
        reason: input.reason,
        note: input.note,
        createdAt: now,
        standing,
      } satisfies FlagRecord,
    );
    op.set(keys.flagByUser(userId, targetType, targetId), true); // a person's flags
    if (entry.weight! >= FLAG_WEIGHT_TO_HIDE && r.hiddenAt === undefined) {
      entry.hidden = true;
      searched = await searchReads(kv, targetType, r);
      await setHidden(kv, op, targetType, r, now, "flags", searched);
    }
    op.set(keys.modQueue(targetType, targetId), entry);
    return { op, result: { ok: true, hidden: entry.hidden } };
  });
  if (result.ok && result.hidden) {
    await afterCommit("flag caches", async () => {
      invalidateReads(kv);
      if (searched) await reindexTarget(kv, targetType, targetId);
    });
  }
  return result;
}

/**
 * Whether hiding or restoring post `r` changes a search document: always for a question;
 * for a message only among its thread's first messages (lib/search/reindex.ts
 * `inSearchDocument`).
 */
function searchReads(kv: Deno.Kv, type: TargetType, r: PostRecord): Promise<boolean> {
  return type === "question" ? Promise.resolve(true) : inSearchDocument(kv, r as MessageRecord);
}

async function setHidden(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  type: TargetType,
  r: PostRecord,
  now: number,
  by: string,
  searched: boolean,
): Promise<void> {
  const key = type === "question" ? keys.question(r.id) : keys.message(r.id);
  op.set(key, { ...r, hiddenAt: now });
  op.set(keys.hiddenPost(type, r.id), { at: now, by });
  // Counts are what others can see: it leaves them as a deleted post does.
  await takeOutOfCounts(kv, op, type, r);
  if (type === "question") dropQuestionVector(op, r.id); // no search result, no vector
  bumpQuestion(op, questionIdOf(type, r));
  // Its text leaves search (lib/search/reindex.ts).
  if (searched) markForReindex(op, questionIdOf(type, r), now);
}

async function clearHidden(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  type: TargetType,
  r: PostRecord,
  searched: boolean,
): Promise<void> {
  const key = type === "question" ? keys.question(r.id) : keys.message(r.id);
  const { hiddenAt: _h, ...rest } = r;
  op.set(key, rest);
  op.delete(keys.hiddenPost(type, r.id));
  await putBackInCounts(kv, op, type, r);
  if (type === "question") markEmbeddingPending(op, r.id); // back in search: the job embeds it
  bumpQuestion(op, questionIdOf(type, r));
  if (searched) markForReindex(op, questionIdOf(type, r), Date.now()); // searchable again
}

/** A moderator's action done, or why not: no such post, or one already deleted (final). */
export type ModActionResult = { ok: true } | { ok: false; reason: "not_found" | "deleted" };

let lastLogTime = 0;

/**
 * Where the next moderation-log entry goes: its id and key, at a time after every earlier
 * entry of this process (the log lists newest first, so two actions in one millisecond keep
 * their order). Every writer of the log takes its place here.
 *
 * @example
 * ```ts
 * declare const op: Deno.AtomicOperation;
 * declare const entry: Omit<ModLogEntry, "id">;
 * const slot = nextLogSlot(Date.now());
 * op.set(slot.key, { ...entry, id: slot.id });
 * ```
 */
export function nextLogSlot(now: number): { id: string; key: Deno.KvKey } {
  lastLogTime = Math.max(now, lastLogTime + 1);
  const id = `modlog-${idSuffix(lastLogTime)}`;
  return { id, key: keys.modLog(invertTime(lastLogTime), id) };
}

/**
 * Apply a moderator's decision to a post and log it. The caller checks that the actor is
 * a moderator.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await moderate(kv, {
 *   moderator: { id: "u_mod", name: "Mo" },
 *   targetType: "question",
 *   targetId: "q-1",
 *   action: "hide",
 * });
 * ```
 */
export async function moderate(
  kv: Deno.Kv,
  input: {
    moderator: { id: string; name: string };
    targetType: TargetType;
    targetId: string;
    action: ModAction;
  },
  { now = Date.now() }: { now?: number } = {},
): Promise<ModActionResult> {
  const { targetType, targetId, action, moderator } = input;
  if (!isLookupId(targetId)) return { ok: false, reason: "not_found" };
  const recordKey = targetType === "question" ? keys.question(targetId) : keys.message(targetId);
  const slot = nextLogSlot(now);
  const logEntry = (questionId: string): ModLogEntry => ({
    id: slot.id,
    action,
    targetType,
    targetId,
    questionId,
    moderator,
    at: now,
  });
  if (action === "delete") {
    const rec = (await kv.get<PostRecord>(recordKey)).value;
    if (!rec) return { ok: false, reason: "not_found" };
    if (rec.deletedAt !== undefined) return { ok: false, reason: "deleted" };
    const deleted = targetType === "question"
      ? await deleteQuestion(kv, { questionId: targetId, userId: moderator.id, moderator: true }, {
        now,
      })
      : await deleteMessage(kv, { messageId: targetId, userId: moderator.id, moderator: true }, {
        now,
      });
    if (!deleted.ok) return { ok: false, reason: "not_found" };
    const questionId = questionIdOf(targetType, rec);
    const entry = logEntry(questionId);
    // The post is gone; the log and the queue follow and cannot fail the request.
    await afterCommit("moderation log", () =>
      commit(kv, (op) => {
        op.set(slot.key, entry)
          .delete(keys.modQueue(targetType, targetId))
          .delete(keys.hiddenPost(targetType, targetId));
        bumpQuestion(op, questionId);
      }));
    return { ok: true };
  }
  let searched = false;
  const result = await updateAtomically<ModActionResult>(async () => {
    const rec = await kv.get<PostRecord>(recordKey);
    const r = rec.value;
    if (!r) return { op: null, result: { ok: false, reason: "not_found" } };
    // Moderators still open a deleted post, so they are told why nothing can be done to it.
    if (r.deletedAt !== undefined) return { op: null, result: { ok: false, reason: "deleted" } };
    const op = kv.atomic().check(rec);
    const hidden = r.hiddenAt !== undefined;
    const hide = action === "hide" && !hidden;
    const restore = (action === "restore" || action === "dismiss") && hidden;
    searched = (hide || restore) && await searchReads(kv, targetType, r);
    if (hide) await setHidden(kv, op, targetType, r, now, moderator.id, searched);
    if (restore) await clearHidden(kv, op, targetType, r, searched);
    const entry = logEntry(questionIdOf(targetType, r));
    op.set(slot.key, entry);
    op.delete(keys.modQueue(targetType, targetId));
    return { op, result: { ok: true } };
  });
  if (result.ok) {
    await afterCommit("moderation caches", async () => {
      invalidateReads(kv);
      if (searched) await reindexTarget(kv, targetType, targetId);
    });
  }
  return result;
}

/** Reindex the question of a post just hidden or restored (its mark is in the op). */
async function reindexTarget(kv: Deno.Kv, type: TargetType, id: string): Promise<void> {
  const questionId = type === "question"
    ? id
    : (await kv.get<MessageRecord>(keys.message(id))).value?.questionId;
  if (questionId) await reindexSoon(kv, questionId);
}

/** A queue entry with the post in context, for `/mod` and `GET /api/mod/queue`. */
export interface ModQueueItem {
  targetType: TargetType;
  targetId: string;
  questionId: string;
  questionTitle: string;
  author: { id: string; name: string };
  excerpt: string;
  flags: number;
  /** Sum of the flags' weights: 1 each, ½ from a new account; 3 hides the post. */
  weight: number;
  /** The newest flaggers with their standing when they flagged. */
  flaggers: Flagger[];
  reasons: Partial<Record<FlagReason, number>>;
  notes: string[];
  hidden: boolean;
  lastFlaggedAt: number;
}

export { QUEUE_LIMIT };

/**
 * The posts waiting for a decision (flagged or hidden by flags), heaviest flag weight first, with
 * their question's title and an excerpt. At most {@link QUEUE_LIMIT}.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const items = await modQueue(kv);
 * ```
 */
export async function modQueue(kv: Deno.Kv): Promise<ModQueueItem[]> {
  const entries: ModQueueEntry[] = [];
  for await (
    const e of kv.list<ModQueueEntry>({ prefix: keys.modQueuePrefix() }, { limit: QUEUE_LIMIT })
  ) entries.push(e.value);
  const out: ModQueueItem[] = [];
  for (const q of entries) {
    const [rec, question] = await kv.getMany<[PostRecord, QuestionRecord]>([
      q.targetType === "question" ? keys.question(q.targetId) : keys.message(q.targetId),
      keys.question(q.questionId),
    ]);
    if (!rec.value || rec.value.deletedAt !== undefined) continue;
    const text = q.targetType === "question"
      ? `${(rec.value as QuestionRecord).title}\n${(rec.value as QuestionRecord).description}`
      : (rec.value as MessageRecord).content;
    out.push({
      targetType: q.targetType,
      targetId: q.targetId,
      questionId: q.questionId,
      questionTitle: question.value?.title ?? "",
      author: { id: rec.value.author.id, name: rec.value.author.name },
      excerpt: excerpt(text, 280),
      flags: q.flags,
      weight: q.weight ?? q.flags,
      flaggers: q.flaggers ?? [],
      reasons: q.reasons,
      notes: q.notes.map((n) => n.note),
      hidden: rec.value.hiddenAt !== undefined,
      lastFlaggedAt: q.lastFlaggedAt,
    });
  }
  return out.sort((a, b) =>
    b.weight - a.weight || b.flags - a.flags || b.lastFlaggedAt - a.lastFlaggedAt
  );
}

/** Log entries per page. */
export const LOG_PAGE = 30;

/**
 * The moderation log, newest first, one page after `cursor` (the last entry key's cursor).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { entries, nextCursor } = await modLog(kv, null);
 * ```
 */
export async function modLog(
  kv: Deno.Kv,
  cursor: string | null,
): Promise<{ entries: ModLogEntry[]; nextCursor: string | null }> {
  // A cursor KV did not issue for this list is refused (400), not read as the log's end.
  const page = await listNewestFirst<ModLogEntry>(kv, keys.modLogPrefix(), {
    limit: LOG_PAGE,
    cursor: cursor ?? undefined,
  });
  return { entries: page.values, nextCursor: page.cursor ?? null };
}

/**
 * Which of `targets` are hidden (for the "hidden by moderators" banner its author sees).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const hidden = await hiddenAmong(kv, [{ type: "question", id: "q-1" }]);
 * hidden.has("q-1");
 * ```
 */
export async function hiddenAmong(
  kv: Deno.Kv,
  targets: { type: TargetType; id: string }[],
): Promise<Set<string>> {
  const out = new Set<string>();
  const got = await getAll(kv, targets.map((t) => keys.hiddenPost(t.type, t.id)));
  got.forEach((e, j) => e.value && out.add(targets[j].id));
  return out;
}

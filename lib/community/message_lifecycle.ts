/**
 * Editing and deleting messages (docs/interface.md#content-lifecycle).
 *
 * Edit: the author only; the content follows the creation rules (the route validates
 * with the create schema); the previous version is kept (./revisions.ts); `editedAt` is
 * set. Markdown is rendered per request (lib/markdown.ts keeps no cache), so nothing
 * stale is served after an edit; the feed's short read cache is dropped.
 *
 * Delete (soft; the author or a moderator), in one atomic op:
 * - With replies (any message whose `replyTo` is this one), the message stays in its
 *   thread as a placeholder: the record keeps its place and is marked `deletedAt`, its
 *   content is erased, and it is served with `deleted: true`, content `""` and the author
 *   `{id: "", name: "[deleted]", avatar: null}`. It still occupies its slot, so the
 *   thread's counters (`messageCount`, `answerCount`, reply counts) keep counting it.
 * - Without replies, it disappears: its thread rows (`question_messages`, and
 *   `question_answers` or `answer_replies`) are removed and `messageCount`, the answer or
 *   reply counter and the parent's direct-reply counter move down.
 * - Either way it leaves its author's activity (`messages_by_author`) and their `answers`
 *   statistic moves down, and if it was the accepted answer the question is unaccepted
 *   (also when that accept was set aside while it is hidden). A hidden message already
 *   left the statistic and the served counts (lib/moderation/public_counts.ts): only the
 *   hidden counters move, with the thread's, when it disappears.
 * - A top-level answer that disappears leaves the `sort=votes` order in the same op
 *   (./answer_order.ts, under a check on its row's pointer); a placeholder keeps its row.
 * The record itself is kept (marked), so ids never dangle; it answers 404 to reads,
 * votes, favorites, edits and replies. A placeholder whose replies later all disappear
 * stays a placeholder (no cascade).
 *
 * @module
 */
import { inSearchDocument, markForReindex, reindexSoon } from "../search/reindex.ts";
import { afterCommit } from "../kv/after_commit.ts";
import { addToCounter, counterValue, getAll, invertTime, updateAtomically } from "../kv/atomic.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import {
  countsTowardStats,
  hiddenCountersOf,
  type MessageRecord,
  rootAnswerOf,
  topLevelCounter,
} from "./messages/model.ts";
import { removeFromAnswerOrder, type ScorePointer } from "./answer_order.ts";
import type { QuestionRecord } from "./questions/model.ts";
import { bumpQuestion } from "./questions/version.ts";
import { invalidateReads } from "./read_cache.ts";
import { isAccountAuthor } from "../account/deleted_user.ts";
import { type Restricted, restriction } from "../moderation/sanctions.ts";
import { writeRevisions } from "./revisions.ts";

/** The outcome of an edit. */
export type EditMessageResult =
  | { ok: true; message: MessageRecord }
  | { ok: false; reason: "message_not_found" | "not_author" }
  | Restricted;

/**
 * Edit a message's content as `userId` (its author only).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await editMessage(kv, { messageId: "msg-1", userId: "u_1", content: "Fixed." });
 * if (!r.ok) r.reason; // "message_not_found" | "not_author"
 * ```
 */
export async function editMessage(
  kv: Deno.Kv,
  input: { messageId: string; userId: string; content: string },
  { now = Date.now() }: { now?: number } = {},
): Promise<EditMessageResult> {
  if (!isLookupId(input.messageId)) return { ok: false, reason: "message_not_found" };
  // A silenced or suspended author edits nothing (docs/interface.md#sanctions).
  const restricted = await restriction(kv, input.userId, now);
  if (restricted) return restricted;
  const content = input.content.trim();
  let searched = true;
  const result = await updateAtomically<EditMessageResult>(async () => {
    const found = await liveMessage(kv, input.messageId);
    if (!found) return { op: null, result: { ok: false, reason: "message_not_found" } };
    const { cur, m } = found;
    searched = found.searched;
    if (m.author.id !== input.userId) {
      return { op: null, result: { ok: false, reason: "not_author" } };
    }
    if (m.content === content) return { op: null, result: { ok: true, message: m } };
    const revision = (m.revision ?? 1) + 1;
    const next: MessageRecord = { ...m, content, editedAt: now, revision };
    const op = kv.atomic().check(cur).set(keys.message(m.id), next);
    bumpQuestion(op, m.questionId); // live question page
    if (searched) markForReindex(op, m.questionId, now); // search sees the new text
    writeRevisions(
      op,
      "message",
      m,
      { content: m.content },
      { revision, editedAt: now },
      { content },
      { id: m.author.id, name: m.author.name },
    );
    return { op, result: { ok: true, message: next } };
  });
  if (result.ok) {
    await afterCommit("message edit caches", async () => {
      invalidateReads(kv);
      if (searched) await reindexSoon(kv, result.message.questionId);
    });
  }
  return result;
}

/**
 * A message that can still be edited or deleted (neither it nor its question deleted),
 * with whether its thread's search document reads it (`inSearchDocument`).
 */
async function liveMessage(
  kv: Deno.Kv,
  messageId: string,
): Promise<{ cur: Deno.KvEntry<MessageRecord>; m: MessageRecord; searched: boolean } | null> {
  const cur = await kv.get<MessageRecord>(keys.message(messageId));
  const m = cur.value;
  if (!m || m.deletedAt !== undefined) return null;
  const [q, searched] = await Promise.all([
    kv.get<QuestionRecord>(keys.question(m.questionId)),
    inSearchDocument(kv, m),
  ]);
  if (!q.value || q.value.deletedAt !== undefined) return null;
  return { cur: cur as Deno.KvEntry<MessageRecord>, m, searched };
}

/** The outcome of a delete: `placeholder` when it stays as "[deleted]" (it has replies). */
export type DeleteMessageResult =
  | { ok: true; placeholder: boolean; questionId: string }
  | { ok: false; reason: "message_not_found" | "forbidden" };

/**
 * Soft-delete a message as `userId` — its author, or anyone when `moderator` is true.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await deleteMessage(kv, { messageId: "msg-1", userId: "u_1", moderator: false });
 * if (r.ok) r.placeholder; // true when replies keep it as "[deleted]"
 * ```
 */
export async function deleteMessage(
  kv: Deno.Kv,
  input: { messageId: string; userId: string; moderator: boolean },
  { now = Date.now() }: { now?: number } = {},
): Promise<DeleteMessageResult> {
  if (!isLookupId(input.messageId)) return { ok: false, reason: "message_not_found" };
  let searched = true;
  const result = await updateAtomically<DeleteMessageResult>(async () => {
    const found = await liveMessage(kv, input.messageId);
    if (!found) return { op: null, result: { ok: false, reason: "message_not_found" } };
    const { cur, m } = found;
    searched = found.searched;
    if (m.author.id !== input.userId && !input.moderator) {
      return { op: null, result: { ok: false, reason: "forbidden" } };
    }
    const rootId = m.replyTo ? await rootAnswerOf(kv, m) : m.id;
    const [direct, accepted, aside, pointer] = await kv.getMany<
      [Deno.KvU64, string, string, ScorePointer]
    >([
      keys.directReplyCount(m.id),
      keys.acceptedAnswer(m.questionId),
      keys.hiddenAcceptedAnswer(m.questionId),
      keys.answerScore(m.id),
    ]);
    // The check on the direct-reply counter makes a reply posted meanwhile (its `sum`
    // moves the versionstamp) retry this decision.
    const replies = direct.versionstamp === null
      ? await countDirectRepliesLegacy(kv, m, rootId)
      : counterValue(direct.value);
    const placeholder = replies > 0;
    const op = kv.atomic().check(cur, direct, accepted, aside);
    const hidden = m.hiddenAt !== undefined;
    bumpQuestion(op, m.questionId); // live question page
    if (searched) markForReindex(op, m.questionId, now); // its text leaves search
    op.set(
      keys.message(m.id),
      {
        ...m,
        content: "",
        deletedAt: now,
        deletedBy: input.userId,
      } satisfies MessageRecord,
    );
    // Undo what the write counted: an AI expert's message was on no activity list; a
    // hidden one's statistic was already moved by its hide (lib/moderation/public_counts.ts).
    if (countsTowardStats(m) && isAccountAuthor(m.author.id)) {
      op.delete(keys.messageByAuthor(m.author.id, invertTime(m.createdAt), m.id));
      if (!hidden) addToCounter(op, keys.userStat(m.author.id, "answers"), -1);
    }
    if (accepted.value === m.id) op.delete(keys.acceptedAnswer(m.questionId));
    if (aside.value === m.id) op.delete(keys.hiddenAcceptedAnswer(m.questionId));
    if (!placeholder) {
      op.delete(keys.questionMessage(m.questionId, m.createdAt, m.id));
      addToCounter(op, keys.messageCount(m.questionId), -1);
      // A hidden message leaves the thread's hidden counters as it leaves the thread (a
      // placeholder stays in both).
      if (hidden) {
        for (const key of hiddenCountersOf(m)) addToCounter(op, key, -1);
      }
      if (m.replyTo) {
        op.delete(keys.answerReply(rootId, m.createdAt, m.id));
        addToCounter(op, keys.replyCount(rootId), -1);
        addToCounter(op, keys.directReplyCount(m.replyTo), -1);
        if (m.authorType === "ai") addToCounter(op, keys.aiReplyCount(m.questionId), -1);
      } else {
        op.delete(keys.questionAnswer(m.questionId, m.createdAt, m.id));
        addToCounter(op, topLevelCounter(m), -1);
        removeFromAnswerOrder(op, m, pointer);
      }
    }
    return { op, result: { ok: true, placeholder, questionId: m.questionId } };
  });
  if (result.ok) {
    await afterCommit("message delete caches", async () => {
      invalidateReads(kv);
      if (searched) await reindexSoon(kv, result.questionId);
    });
  }
  return result;
}

/**
 * Direct replies of a message written before the direct-reply counter existed: the
 * replies under its top-level answer whose `replyTo` is it (bounded by that answer's
 * reply count).
 */
async function countDirectRepliesLegacy(
  kv: Deno.Kv,
  m: MessageRecord,
  rootId: string,
): Promise<number> {
  const ids: string[] = [];
  for await (const e of kv.list<string>({ prefix: keys.answerRepliesPrefix(rootId) })) {
    ids.push(e.value);
  }
  let n = 0;
  for (const e of await getAll<MessageRecord>(kv, ids.map(keys.message))) {
    if (e.value?.replyTo === m.id) n++;
  }
  return n;
}

/**
 * The steps of an account's deletion (./delete_job.ts), one item at a time. Every step is
 * idempotent — run twice, or resumed after a crash halfway, it leaves the same state — so
 * the job can redo the last batch it did not record instead of keeping per-item state.
 *
 * - A post, kept (`content: "keep"`): its author snapshot becomes "deleted user"
 *   (./deleted_user.ts) in the record, in the newest feed's snapshot and in its revisions;
 *   its author's activity row, follow and `authored` row go.
 * - A post, deleted (`content: "delete"`): the normal delete path (the content lifecycle's
 *   soft delete: counters, feeds, search postings, activity), then the record keeps no
 *   trace of its author or text (a question's title becomes "[deleted]"), and its
 *   revisions go.
 * - A vote: moved to a fresh anonymous voter id (`anon_…`), so the counts — and the voter
 *   entries a consistency check counts — stay as they were, with no link to the person or
 *   between their votes; its activity row goes.
 * - A favorite: removed as an unfavorite would (counts move down).
 * - A flag: moved to an anonymous id like a vote (the queue's weight stays); the queue's
 *   flagger list shows "deleted user".
 * - A debate: removed with its messages, events, watchers and rows.
 *
 * @module
 */
import { addToCounter, commit, getAll, invertTime, updateAtomically } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { randomToken } from "../ids.ts";
import { deleteMessage } from "../community/message_lifecycle.ts";
import { deleteQuestion } from "../community/questions/delete.ts";
import { bumpQuestion } from "../community/questions/version.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import type { QuestionSeqEntry } from "../community/questions/write.ts";
import type { RevisionRecord } from "../community/revisions.ts";
import type { FavoriteRecord, UserFavoriteEntry } from "../community/favorites.ts";
import type { TargetType } from "../community/targets.ts";
import type { FlagRecord, ModQueueEntry } from "../moderation/moderation.ts";
import type { DebateRecord } from "../debates/store.ts";
import type { RoundtableRecord } from "../roundtables/model.ts";
import {
  DELETED_USER,
  DELETED_USER_NAME,
  isAccountAuthor,
  type KeptContent,
} from "./deleted_user.ts";

/** A fresh anonymous id for one moved vote or flag: no two of them link. */
function anonymousId(): string {
  return `anon_${randomToken(12)}`;
}

/**
 * Delete every key under `prefix`, `batch` keys per commit. Returns how many.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await deletePrefix(kv, ["notifications", "u_1"]);
 * ```
 */
export async function deletePrefix(kv: Deno.Kv, prefix: Deno.KvKey, batch = 500): Promise<number> {
  let n = 0;
  for (;;) {
    const rows = await Array.fromAsync(kv.list({ prefix }, { limit: batch }));
    if (rows.length === 0) return n;
    await commit(kv, (op) => {
      for (const r of rows) op.delete(r.key);
    });
    n += rows.length;
    if (rows.length < batch) return n;
  }
}

/**
 * The revisions of one post: rewritten with `editedBy` "deleted user" (a kept post) or
 * removed (a deleted one), a hundred per commit.
 */
async function eraseRevisions(
  kv: Deno.Kv,
  targetType: TargetType,
  targetId: string,
  userId: string,
  content: KeptContent,
): Promise<void> {
  const prefix = keys.revisionsPrefix(targetType, targetId);
  if (content === "delete") {
    await deletePrefix(kv, prefix, 100);
    return;
  }
  let cursor: string | undefined;
  for (;;) {
    const iter = kv.list<RevisionRecord>({ prefix }, { limit: 100, cursor });
    const rows = await Array.fromAsync(iter);
    const mine = rows.filter((r) => r.value.editedBy.id === userId);
    if (mine.length > 0) {
      await commit(kv, (op) => {
        for (const r of mine) {
          op.set(
            r.key,
            {
              ...r.value,
              editedBy: { id: DELETED_USER.id, name: DELETED_USER_NAME },
            } satisfies RevisionRecord,
          );
        }
      });
    }
    if (rows.length < 100) return;
    cursor = iter.cursor;
  }
}

/**
 * The rows every post of `userId` leaves when its author goes: follow and `authored`, and
 * the author's id on the post's moderation-queue entry (`queue`, as read and checked).
 */
function dropPersonalRows(
  op: Deno.AtomicOperation,
  userId: string,
  kind: "question" | "message",
  postId: string,
  questionId: string,
  queue: Deno.KvEntryMaybe<ModQueueEntry>,
): void {
  op.delete(keys.authored(userId, kind, postId))
    .delete(keys.follow(questionId, userId))
    .delete(keys.followByUser(userId, questionId));
  if (queue.value?.authorId === userId) {
    op.check(queue).set(queue.key, { ...queue.value, authorId: DELETED_USER.id });
  }
}

/**
 * Erase one message of `userId` as {@link KeptContent} says (see the module doc).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await eraseMessage(kv, "msg-1", "u_1", "keep", Date.now());
 * ```
 */
export async function eraseMessage(
  kv: Deno.Kv,
  messageId: string,
  userId: string,
  content: KeptContent,
  now: number,
): Promise<void> {
  let m = (await kv.get<MessageRecord>(keys.message(messageId))).value;
  if (m && m.author.id === userId && content === "delete" && m.deletedAt === undefined) {
    // The normal path: counters, thread rows, answer order, accepted mark. It refuses a
    // message of a deleted question; that one is blanked below instead.
    await deleteMessage(kv, { messageId, userId, moderator: false }, { now });
  }
  await updateAtomically(async () => {
    const [cur, queue] = await kv.getMany<[MessageRecord, ModQueueEntry]>([
      keys.message(messageId),
      keys.modQueue("message", messageId),
    ]);
    m = cur.value;
    const op = kv.atomic();
    if (!m || m.author.id !== userId) {
      // Gone, or already erased: only the person's own row can be left.
      op.delete(keys.authored(userId, "message", messageId));
      return { op, result: null };
    }
    op.check(cur).set(
      keys.message(m.id),
      {
        ...m,
        author: DELETED_USER,
        ...(content === "delete" ? { content: "" } : {}),
        ...(m.deletedBy === userId ? { deletedBy: "" } : {}),
      } satisfies MessageRecord,
    );
    op.delete(keys.messageByAuthor(userId, invertTime(m.createdAt), m.id));
    dropPersonalRows(op, userId, "message", m.id, m.questionId, queue);
    bumpQuestion(op, m.questionId); // open pages show the new author
    return { op, result: null };
  });
  await eraseRevisions(kv, "message", messageId, userId, content);
}

/**
 * Erase one question of `userId` as {@link KeptContent} says (see the module doc).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await eraseQuestion(kv, "q-1", "u_1", "delete", Date.now());
 * ```
 */
export async function eraseQuestion(
  kv: Deno.Kv,
  questionId: string,
  userId: string,
  content: KeptContent,
  now: number,
): Promise<void> {
  const first = (await kv.get<QuestionRecord>(keys.question(questionId))).value;
  if (first && first.author.id === userId && content === "delete" && !first.deletedAt) {
    await deleteQuestion(kv, { questionId, userId, moderator: false }, { now });
  }
  await updateAtomically(async () => {
    const [cur, seqs, queue] = await kv.getMany<[QuestionRecord, QuestionSeqEntry, ModQueueEntry]>([
      keys.question(questionId),
      keys.questionSeqs(questionId),
      keys.modQueue("question", questionId),
    ]);
    const q = cur.value;
    const op = kv.atomic();
    if (!q || q.author.id !== userId) {
      op.delete(keys.authored(userId, "question", questionId));
      return { op, result: null };
    }
    const next: QuestionRecord = {
      ...q,
      author: DELETED_USER,
      ...(content === "delete" ? { title: "[deleted]", description: "" } : {}),
      ...(q.deletedBy === userId ? { deletedBy: "" } : {}),
    };
    op.check(cur, seqs).set(keys.question(q.id), next);
    // A store written before compact storage 3 may still hold a copy of the question, its
    // author's name included, in the newest-feed row: the id replaces it (today's shape).
    if (q.deletedAt === undefined && seqs.value && seqs.value.seq > 0) {
      op.set(keys.questionBySeq(seqs.value.seq), q.id);
    }
    op.delete(keys.questionByAuthor(userId, invertTime(q.createdAt), q.id));
    dropPersonalRows(op, userId, "question", q.id, q.id, queue);
    bumpQuestion(op, q.id);
    return { op, result: null };
  });
  await eraseRevisions(kv, "question", questionId, userId, content);
}

/** Votes moved per commit (each checks its key; KV allows 10 checks, one is spare). */
const VOTES_PER_OP = 9;

/**
 * Move the votes of these activity rows to anonymous voters (see the module doc). A row
 * whose vote is gone or differs (already moved, or changed) only loses the row.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const rows: Deno.KvEntry<unknown>[];
 * await anonymizeVotes(kv, "u_1", rows);
 * ```
 */
export async function anonymizeVotes(
  kv: Deno.Kv,
  userId: string,
  rows: Deno.KvEntry<unknown>[],
): Promise<void> {
  // The key names the target (`["user_votes", userId, inv, type, id]`), in either shape.
  const target = (r: Deno.KvEntry<unknown>) => ({
    targetType: r.key[3] as string,
    targetId: r.key[4] as string,
  });
  for (let i = 0; i < rows.length; i += VOTES_PER_OP) {
    const chunk = rows.slice(i, i + VOTES_PER_OP).map((r) => ({ ...r, value: target(r) }));
    await updateAtomically(async () => {
      const votes = await getAll(
        kv,
        chunk.map((r) => keys.vote(r.value.targetType, r.value.targetId, userId)),
      );
      const op = kv.atomic();
      chunk.forEach((r, j) => {
        op.delete(r.key);
        const v = votes[j];
        if (!v.value) return;
        op.check(v).delete(v.key)
          .set(keys.vote(r.value.targetType, r.value.targetId, anonymousId()), v.value);
      });
      return { op, result: null };
    });
  }
}

/**
 * Remove the favorites of these activity rows, moving their counts down as an unfavorite
 * does (the target's author's `favorites_received` too, when the target is still there).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const row: Deno.KvEntry<import("../community/favorites.ts").UserFavoriteEntry>;
 * await removeFavorite(kv, "u_1", row);
 * ```
 */
export async function removeFavorite(
  kv: Deno.Kv,
  userId: string,
  row: Deno.KvEntry<UserFavoriteEntry>,
): Promise<void> {
  const { targetType, targetId } = row.value;
  await updateAtomically(async () => {
    const [fav, target] = await kv.getMany<[FavoriteRecord, QuestionRecord | MessageRecord]>([
      keys.favorite(userId, targetType, targetId),
      targetType === "question" ? keys.question(targetId) : keys.message(targetId),
    ]);
    const op = kv.atomic().delete(row.key);
    if (fav.value) {
      op.check(fav).delete(fav.key);
      addToCounter(op, keys.favoriteCount(targetType, targetId), -1);
      const authorId = target.value?.author.id ?? "";
      if (isAccountAuthor(authorId)) {
        addToCounter(op, keys.userStat(authorId, "favorites_received"), -1);
      }
    }
    return { op, result: null };
  });
}

/**
 * Move one flag of `userId` to an anonymous flagger; the queue's flagger list names
 * "deleted user" instead of them. With `content: "delete"` the flag's note (their text)
 * goes too, from the flag and from the queue.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await anonymizeFlag(kv, "u_1", "message", "msg-1", "keep");
 * ```
 */
export async function anonymizeFlag(
  kv: Deno.Kv,
  userId: string,
  targetType: TargetType,
  targetId: string,
  content: KeptContent,
): Promise<void> {
  await updateAtomically(async () => {
    const [flag, queue] = await kv.getMany<[FlagRecord, ModQueueEntry]>([
      keys.flag(targetType, targetId, userId),
      keys.modQueue(targetType, targetId),
    ]);
    const op = kv.atomic().check(flag, queue).delete(keys.flagByUser(userId, targetType, targetId));
    const f = flag.value;
    const dropNote = content === "delete" && !!f?.note;
    if (f) {
      op.delete(flag.key).set(
        keys.flag(targetType, targetId, anonymousId()),
        dropNote ? { ...f, note: null } : f,
      );
    }
    const q = queue.value;
    if (q && (q.flaggers?.some((x) => x.id === userId) || dropNote)) {
      op.set(
        queue.key,
        {
          ...q,
          flaggers: q.flaggers?.map((x) =>
            x.id === userId ? { ...x, id: DELETED_USER.id, name: DELETED_USER_NAME } : x
          ),
          notes: dropNote
            ? q.notes.filter((n) => !(n.at === f!.createdAt && n.note === f!.note))
            : q.notes,
        } satisfies ModQueueEntry,
      );
    }
    return { op, result: null };
  });
}

/**
 * Remove one debate of `userId` with everything it keeps: record, messages, events,
 * watchers, list rows, and a job still running it (whose fenced writes then fail).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await eraseDebate(kv, "u_1", "debate_1700000000000_k3j9x0qa2m");
 * ```
 */
export async function eraseDebate(kv: Deno.Kv, userId: string, debateId: string): Promise<void> {
  for (
    const prefix of [
      keys.debateMessagesPrefix(debateId),
      keys.debateEventsPrefix(debateId),
      ["debate_watchers", debateId],
    ]
  ) await deletePrefix(kv, prefix);
  await updateAtomically(async () => {
    const [rec, watches] = await kv.getMany<[DebateRecord, number]>([
      keys.debate(debateId),
      keys.debateWatches(debateId),
    ]);
    const op = kv.atomic().check(rec, watches)
      .delete(keys.debate(debateId))
      .delete(keys.debateWatches(debateId))
      .delete(keys.debateEventHead(debateId))
      .delete(keys.debateRunning(debateId))
      .delete(keys.job("debate", debateId))
      .delete(keys.jobLease("debate", debateId));
    const d = rec.value;
    if (d && d.userId === userId) {
      const inv = invertTime(d.createdAt);
      op.delete(keys.debateByUser(userId, inv, debateId)).delete(keys.debateByTime(inv, debateId));
      if ((watches.value ?? 0) > 0) {
        op.delete(keys.debateByWatches(watches.value!, inv, debateId));
      }
    }
    return { op, result: null };
  });
}

/**
 * Remove one roundtable of `userId` with everything it keeps: record, statements, the
 * host's interjections, events, list rows, and a job still running it (whose fenced writes
 * then fail).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await eraseRoundtable(kv, "u_1", "rt_1700000000000_k3j9x0qa2m");
 * ```
 */
export async function eraseRoundtable(kv: Deno.Kv, userId: string, id: string): Promise<void> {
  for (
    const prefix of [
      keys.roundtableMessagesPrefix(id),
      keys.roundtableInterjectionsPrefix(id),
      ["roundtable_events", id],
    ]
  ) await deletePrefix(kv, prefix);
  await updateAtomically(async () => {
    const rec = await kv.get<RoundtableRecord>(keys.roundtable(id));
    const op = kv.atomic().check(rec)
      .delete(keys.roundtable(id))
      .delete(keys.roundtableEventHead(id))
      .delete(keys.job("roundtable", id))
      .delete(keys.jobLease("roundtable", id));
    const r = rec.value;
    if (r && r.userId === userId) {
      const inv = invertTime(r.createdAt);
      op.delete(keys.roundtableByUser(userId, inv, id)).delete(keys.roundtableByTime(inv, id));
    }
    return { op, result: null };
  });
}

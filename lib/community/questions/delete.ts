/**
 * Deleting a question (docs/interface.md#content-lifecycle): a soft delete by its author or a moderator. One
 * atomic op marks the record (`deletedAt`, `deletedBy`) and removes every row that lists
 * it — the time feed, its position in the newest feed and in each tag feed (each recorded
 * as a hole, ./holes.ts, so pages stay full and totals right), its search postings and
 * its author's activity row — and moves the `questions` total and the author's
 * `questions` statistic down (a hidden question's feed rows, total and statistic were
 * already taken out by its hide, so nothing is taken out twice: ./listing.ts). So it leaves the new, hot, tag and search feeds, the agent
 * list, activity and public profiles at once. Reads treat a deleted record as absent
 * (./read.ts `getQuestion`), except for its author and moderators, who still open it;
 * its thread can no longer be answered, voted on or favorited.
 *
 * The thread's messages are left as they are (a question may have thousands): answers
 * on a deleted question keep counting in their authors' `answers` statistic but leave
 * their activity lists, which skip answers whose question is deleted
 * (lib/profile/activity.ts).
 *
 * @module
 */
import { afterCommit } from "../../kv/after_commit.ts";
import { addToCounter, invertTime, updateAtomically } from "../../kv/atomic.ts";
import { bumpQuestion } from "./version.ts";
import { isAccountAuthor } from "../../account/deleted_user.ts";
import { isLookupId, keys } from "../../kv/keys.ts";
import { invalidateReads } from "../read_cache.ts";
import { docKey, type StoredDoc, unindexOps } from "../../search/index.ts";
import { dropQuestionVector } from "../../search/question_vectors.ts";
import { takeOutOfFeeds } from "./listing.ts";
import { feedKey } from "./model.ts";
import { findSeqEntry, readQuestionToChange } from "./seqs.ts";

/** The outcome of a delete. */
export type DeleteQuestionResult =
  | { ok: true }
  | { ok: false; reason: "question_not_found" | "forbidden" };

/**
 * Soft-delete a question as `userId` — its author, or anyone when `moderator` is true.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await deleteQuestion(kv, { questionId: "q-1", userId: "u_1", moderator: false });
 * if (!r.ok) r.reason; // "question_not_found" | "forbidden"
 * ```
 */
export async function deleteQuestion(
  kv: Deno.Kv,
  input: { questionId: string; userId: string; moderator: boolean },
  { now = Date.now() }: { now?: number } = {},
): Promise<DeleteQuestionResult> {
  if (!isLookupId(input.questionId)) return { ok: false, reason: "question_not_found" };
  const result = await updateAtomically<DeleteQuestionResult>(async () => {
    const read = await readQuestionToChange(kv, input, "forbidden");
    if (!read.ok) return { op: null, result: read };
    const { cur, q, seqsEntry } = read;
    const seqs = seqsEntry.value ?? await findSeqEntry(kv, q);
    const inv = invertTime(q.createdAt);
    const op = kv.atomic().check(cur, seqsEntry)
      .set(keys.question(q.id), { ...q, deletedAt: now, deletedBy: input.userId })
      .set(keys.questionSeqs(q.id), seqs)
      .delete(feedKey(q))
      .delete(keys.questionByAuthor(q.author.id, inv, q.id));
    // Each feed row becomes a hole; a hidden question's rows already are.
    await takeOutOfFeeds(kv, op, q, seqs);
    // Out of the search index in the same op: both of its documents.
    const docs = await kv.getMany<[StoredDoc, StoredDoc]>([
      docKey("question", q.id),
      docKey("answers", q.id),
    ]);
    op.check(...docs);
    if (docs[0].value) unindexOps(op, "question", q.id, docs[0].value);
    if (docs[1].value) unindexOps(op, "answers", q.id, docs[1].value);
    dropQuestionVector(op, q.id); // and its pending marker
    bumpQuestion(op, q.id); // live question page
    // A hidden question already left the total and its author's statistic
    // (lib/moderation/public_counts.ts); a deleted account's kept question has no
    // statistics left to move.
    if (q.hiddenAt === undefined) {
      addToCounter(op, keys.counter("questions"), -1);
      if (isAccountAuthor(q.author.id)) {
        addToCounter(op, keys.userStat(q.author.id, "questions"), -1);
      }
    }
    return { op, result: { ok: true } };
  });
  if (result.ok) await afterCommit("question delete caches", () => invalidateReads(kv));
  return result;
}

/**
 * What hiding a post takes out of the public counts, and restoring it puts back — the
 * same things a delete takes out (docs/interface.md#moderation), moved in the hide's or
 * restore's own atomic op:
 *
 * - A question: its rows in the newest feed and its tags' feeds (each leaves a hole, so
 *   pages stay full and a tag's total leaves it out; restored, each row goes back where
 *   it was: lib/community/questions/listing.ts), the `questions` total and its author's
 *   `questions` statistic.
 * - A message: the hidden part of its thread's counters (`hiddenCountersOf`: served
 *   `messageCount`, `answerCount` and the AI panel's counts leave it out) and its author's
 *   `answers` statistic. An accepted answer is set aside while hidden
 *   (`["hidden_accepted_answers", q]`): the question reads as not accepted — to everyone,
 *   as every count does — and the restore accepts it again, unless the asker has accepted
 *   or unaccepted since (their newer choice stands).
 *
 * The rows that stay (the time feed, activity rows, thread rows) are left out by the
 * readers, which skip hidden records. A delete of a hidden post does not take these out a
 * second time (lib/community/questions/delete.ts, lib/community/message_lifecycle.ts).
 *
 * @module
 */
import { addToCounter } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { isAccountAuthor } from "../account/deleted_user.ts";
import {
  countsTowardStats,
  hiddenCountersOf,
  type MessageRecord,
} from "../community/messages/model.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { putBackInFeeds, takeOutOfFeeds } from "../community/questions/listing.ts";
import { findSeqEntry } from "../community/questions/seqs.ts";
import type { QuestionSeqEntry } from "../community/questions/write.ts";
import type { TargetType } from "../community/targets.ts";

/** A question or a message record. */
type PostRecord = QuestionRecord | MessageRecord;

/**
 * Take post `r`, being hidden in `op`, out of the public counts (see the module doc). It
 * reads what it moves and checks it in `op`.
 *
 * @example
 * ```ts
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * declare const kv: Deno.Kv;
 * declare const q: QuestionRecord;
 * const op = kv.atomic();
 * await takeOutOfCounts(kv, op, "question", q);
 * ```
 */
export async function takeOutOfCounts(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  type: TargetType,
  r: PostRecord,
): Promise<void> {
  if (type === "question") {
    const q = r as QuestionRecord;
    const seqs = await positionsOf(kv, op, q);
    await takeOutOfFeeds(kv, op, q, seqs);
    op.set(keys.questionSeqs(q.id), seqs); // where the restore puts it back
    addToCounter(op, keys.counter("questions"), -1);
    if (isAccountAuthor(q.author.id)) addToCounter(op, keys.userStat(q.author.id, "questions"), -1);
    return;
  }
  const m = r as MessageRecord;
  for (const key of hiddenCountersOf(m)) addToCounter(op, key, 1);
  if (countsTowardStats(m) && isAccountAuthor(m.author.id)) {
    addToCounter(op, keys.userStat(m.author.id, "answers"), -1);
  }
  if (m.replyTo) return;
  const accepted = await kv.get<string>(keys.acceptedAnswer(m.questionId));
  op.check(accepted);
  if (accepted.value === m.id) {
    op.delete(accepted.key).set(keys.hiddenAcceptedAnswer(m.questionId), m.id);
  }
}

/**
 * Put post `r`, being restored in `op`, back in the public counts (see the module doc).
 *
 * @example
 * ```ts
 * import type { MessageRecord } from "@/lib/community/messages/model.ts";
 * declare const kv: Deno.Kv;
 * declare const m: MessageRecord;
 * const op = kv.atomic();
 * await putBackInCounts(kv, op, "message", m);
 * ```
 */
export async function putBackInCounts(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  type: TargetType,
  r: PostRecord,
): Promise<void> {
  if (type === "question") {
    const q = r as QuestionRecord;
    const seqs = await positionsOf(kv, op, q);
    op.set(keys.questionSeqs(q.id), await putBackInFeeds(kv, op, q, seqs));
    addToCounter(op, keys.counter("questions"), 1);
    if (isAccountAuthor(q.author.id)) addToCounter(op, keys.userStat(q.author.id, "questions"), 1);
    return;
  }
  const m = r as MessageRecord;
  for (const key of hiddenCountersOf(m)) addToCounter(op, key, -1);
  if (countsTowardStats(m) && isAccountAuthor(m.author.id)) {
    addToCounter(op, keys.userStat(m.author.id, "answers"), 1);
  }
  if (m.replyTo) return;
  const [accepted, aside] = await kv.getMany<[string, string]>([
    keys.acceptedAnswer(m.questionId),
    keys.hiddenAcceptedAnswer(m.questionId),
  ]);
  op.check(accepted, aside);
  if (aside.value !== m.id) return;
  op.delete(aside.key);
  if (accepted.versionstamp === null) op.set(accepted.key, m.id);
}

/** Question `q`'s feed positions, checked in `op` (found by a scan for an older question). */
async function positionsOf(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  q: QuestionRecord,
): Promise<QuestionSeqEntry> {
  const entry = await kv.get<QuestionSeqEntry>(keys.questionSeqs(q.id));
  op.check(entry);
  return entry.value ?? await findSeqEntry(kv, q);
}

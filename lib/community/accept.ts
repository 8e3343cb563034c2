/**
 * The accepted answer (docs/interface.md#content-lifecycle): the asker marks the top-level answer that solved
 * the question, under `["accepted_answers", questionId]`, or clears it with null. A
 * deleted accepted answer unaccepts (lib/community/message_lifecycle.ts clears the key in
 * the delete's own op); a hidden one is set aside until it is restored
 * (lib/moderation/public_counts.ts), and neither can be accepted. This write checks the
 * message, so the two cannot cross.
 *
 * @module
 */
import { acceptInOp } from "../notifications/hooks.ts";
import { bumpQuestion } from "./questions/version.ts";
import { afterCommit } from "../kv/after_commit.ts";
import { updateAtomically } from "../kv/atomic.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import type { MessageRecord } from "./messages/model.ts";
import type { QuestionRecord } from "./questions/model.ts";
import { invalidateReads } from "./read_cache.ts";
import { isAccountAuthor } from "../account/deleted_user.ts";
import { isPublic } from "./visibility.ts";
import { type Restricted, restriction } from "../moderation/sanctions.ts";

/** The outcome of an accept. */
export type AcceptResult =
  | { ok: true; acceptedMessageId: string | null }
  | {
    ok: false;
    reason:
      | "question_not_found"
      | "not_asker"
      | "message_not_found"
      | "not_an_answer"
      | "expert_message";
  }
  | Restricted;

/**
 * Accept `messageId` (a top-level answer of the question) as `userId`, the asker; null
 * clears the mark.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await acceptAnswer(kv, { questionId: "q-1", userId: "u_1", messageId: "msg-1" });
 * if (r.ok) r.acceptedMessageId; // "msg-1"
 * ```
 */
export async function acceptAnswer(
  kv: Deno.Kv,
  input: { questionId: string; userId: string; messageId: string | null },
): Promise<AcceptResult> {
  if (!isLookupId(input.questionId)) return { ok: false, reason: "question_not_found" };
  // Accepting is a judgement on others' posts, as a vote is: not while silenced.
  const restricted = await restriction(kv, input.userId, Date.now());
  if (restricted) return restricted;
  const { messageId } = input;
  const result = await updateAtomically<AcceptResult>(async () => {
    const [q, m] = await kv.getMany<[QuestionRecord, MessageRecord]>([
      keys.question(input.questionId),
      keys.message(messageId && isLookupId(messageId) ? messageId : "\u0000none"),
    ]);
    if (!q.value || q.value.deletedAt !== undefined) {
      return { op: null, result: { ok: false, reason: "question_not_found" } };
    }
    if (q.value.author.id !== input.userId) {
      return { op: null, result: { ok: false, reason: "not_asker" } };
    }
    // The asker's choice replaces an accept set aside while its answer is hidden
    // (lib/moderation/public_counts.ts): that answer's restore then leaves it alone.
    const op = kv.atomic().delete(keys.hiddenAcceptedAnswer(q.value.id));
    if (messageId === null) {
      op.delete(keys.acceptedAnswer(q.value.id));
      bumpQuestion(op, q.value.id);
      return { op, result: { ok: true, acceptedMessageId: null } };
    }
    const msg = m.value;
    // A hidden answer is not there for the public: it cannot be what solved the question.
    if (!msg || !isPublic(msg) || msg.questionId !== q.value.id) {
      return { op: null, result: { ok: false, reason: "message_not_found" } };
    }
    if (msg.replyTo) return { op: null, result: { ok: false, reason: "not_an_answer" } };
    // The AI expert panel's messages are not answers: accepting one would mark the question
    // answered (the feed, `filter=unanswered`) with no answer by anyone.
    if (msg.authorType === "ai") {
      return { op: null, result: { ok: false, reason: "expert_message" } };
    }
    op.check(m).set(keys.acceptedAnswer(q.value.id), msg.id);
    // Once accepted, the author's account is established (lib/moderation/standing.ts).
    if (isAccountAuthor(msg.author.id)) op.max(keys.userStat(msg.author.id, "answer_accepted"), 1n);
    acceptInOp(op, q.value, msg, Date.now());
    return { op, result: { ok: true, acceptedMessageId: msg.id } };
  });
  if (result.ok) await afterCommit("accept caches", () => invalidateReads(kv));
  return result;
}

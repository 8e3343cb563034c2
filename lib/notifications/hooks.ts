/**
 * What the community writes add for follows and notifications, kept here so the writers
 * (lib/community/*) each gain one call. (The live question page hears of every change
 * through the question's version: lib/community/questions/version.ts.)
 *
 * @module
 */
import { keys } from "../kv/keys.ts";
import { type MessageRecord, rootAnswerOf } from "../community/messages/model.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { jobRunner } from "../jobs/runner.ts";
import { FANOUT_JOB, fanoutOps } from "./fanout.ts";
import { bumpQuestion } from "../community/questions/version.ts";
import { followInOp, type NewNotification, notifyInOp, notifyUpvote } from "./notifications.ts";

/** What {@link messageInOp} leaves for after the commit. */
export interface AfterMessage {
  /** The id of the `answer` fan-out job to the other followers, when there is one. */
  fanOut: string | null;
}

/** Who hears of a new message (see {@link messageInOp}). */
export interface MessageAudience {
  /** The author starts following the question (a person who answers does). */
  authorFollows: boolean;
  /** The parent's author, the asker and the followers are notified. */
  notify: boolean;
}

/**
 * Inside a new message's op: its author follows the question (`authorFollows`); with
 * `notify`, a reply notifies the parent's author (`reply`) and an answer notifies the asker
 * if they follow (`answer`); the other followers get theirs from a fan-out job created in
 * the same op (lib/notifications/fanout.ts) that {@link afterMessage} starts
 * (null without `notify`: nothing to do after the commit).
 *
 * @example
 * ```ts
 * import type { MessageRecord } from "@/lib/community/messages/model.ts";
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * declare const kv: Deno.Kv;
 * declare const m: MessageRecord;
 * declare const q: QuestionRecord;
 * const op = kv.atomic();
 * const after = await messageInOp(kv, op, m, q, null, undefined, {
 *   authorFollows: true,
 *   notify: true,
 * });
 * ```
 */
export async function messageInOp(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  m: MessageRecord,
  q: QuestionRecord,
  parent: MessageRecord | null,
  rootId: string | undefined,
  audience: MessageAudience,
): Promise<AfterMessage | null> {
  if (audience.authorFollows) followInOp(op, q.id, m.author.id, m.createdAt);
  if (!audience.notify) return null;
  const n: NewNotification = {
    type: parent ? "reply" : "answer",
    actor: { id: m.author.id },
    questionId: q.id,
    messageId: m.id,
    answerId: rootId ?? m.id,
  };
  const skip = new Set([m.author.id]);
  if (parent) {
    notifyInOp(op, parent.author.id, n, m.createdAt);
    return { fanOut: null };
  }
  skip.add(q.author.id);
  // The asker is notified here; a job for the others only when there are others.
  const [asker, first] = await Promise.all([
    kv.get(keys.follow(q.id, q.author.id)),
    Array.fromAsync(kv.list({ prefix: keys.followsPrefix(q.id) }, { limit: skip.size + 1 })),
  ]);
  if (asker.value) notifyInOp(op, q.author.id, n, m.createdAt);
  if (first.every((e) => skip.has(e.key[2] as string))) return { fanOut: null };
  fanoutOps(op, jobRunner(kv), m.id, n, skip);
  return { fanOut: m.id };
}

/** After the message's commit: start its fan-out job here (never waits for it to run). */
export async function afterMessage(kv: Deno.Kv, a: AfterMessage, _now?: number): Promise<void> {
  if (a.fanOut) await jobRunner(kv).adopt(FANOUT_JOB, a.fanOut);
}

/** Inside an accept's op: the answer's author hears of it (not the asker themself). */
export function acceptInOp(
  op: Deno.AtomicOperation,
  q: QuestionRecord,
  m: MessageRecord,
  now: number,
): void {
  bumpQuestion(op, q.id);
  notifyInOp(op, m.author.id, {
    type: "accepted",
    actor: { id: q.author.id },
    questionId: q.id,
    messageId: m.id,
    answerId: m.id,
  }, now);
}

/**
 * After an up-vote's commit (under `afterCommit`): the author's `upvotes` entry of the day.
 * `read` is the target's record as the vote read it, when the caller has it: a vote reads
 * its target (and refuses a missing, deleted or hidden one) just before it commits, so a
 * voted question is not read again, nor a voted answer (only its question); left out,
 * both are read.
 */
export async function afterUpvote(
  kv: Deno.Kv,
  target: { type: "question" | "message"; id: string; authorId: string; questionId: string },
  voterId: string,
  now: number,
  count = 1,
  read?: QuestionRecord | MessageRecord,
): Promise<void> {
  if (target.authorId === voterId) return;
  let message: MessageRecord | null = null;
  if (read && target.type === "question") {
    // Nothing to read: the vote saw the question there.
  } else if (read) {
    // The answer as the vote saw it; its question still there (the vote read only the answer).
    const q = await kv.get<QuestionRecord>(keys.question(target.questionId));
    if (!q.value) return;
    message = read as MessageRecord;
  } else {
    const [q, m] = await kv.getMany<[QuestionRecord, MessageRecord]>([
      keys.question(target.questionId),
      target.type === "message" ? keys.message(target.id) : keys.question("\u0000none"),
    ]);
    if (!q.value) return;
    message = m.value;
  }
  let answerId: string | null = null;
  if (message) {
    answerId = message.id;
    if (message.replyTo) answerId = await rootAnswerOf(kv, message);
  }
  await notifyUpvote(kv, {
    recipientId: target.authorId,
    voterId,
    targetType: target.type,
    targetId: target.id,
    questionId: target.questionId,
    answerId,
    count,
  }, now);
}

/**
 * What the community writes add for follows, notifications and live pages, kept here so
 * the writers (lib/community/*) each gain one call.
 *
 * @module
 */
import { addToCounter } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { MessageRecord } from "../community/messages.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import {
  actorOf,
  fanOutAnswer,
  followInOp,
  type NewNotification,
  notifyInOp,
  notifyUpvote,
} from "./notifications.ts";

/**
 * Bump a question's version inside `op`: the live question page (`kv.watch` on it) sees
 * every answer, vote, edit, delete, accept and moderation of the thread.
 */
export function bumpQuestion(op: Deno.AtomicOperation, questionId: string): void {
  addToCounter(op, keys.questionVersion(questionId), 1);
}

/** What {@link messageInOp} leaves for after the commit. */
export interface AfterMessage {
  /** The `answer` fan-out to the other followers (top-level answers only). */
  fanOut: NewNotification | null;
  /** Who was notified in the op (or must not be): the fan-out skips them. */
  skip: Set<string>;
}

/**
 * Inside a new message's op: its author follows the question, the version moves, a reply
 * notifies the parent's author (`reply`) and an answer notifies the asker if they follow
 * (`answer`); the other followers are left to {@link afterMessage}.
 */
export async function messageInOp(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  m: MessageRecord,
  q: QuestionRecord,
  parent: MessageRecord | null,
  rootId: string | undefined,
): Promise<AfterMessage> {
  followInOp(op, q.id, m.author.id, m.createdAt);
  bumpQuestion(op, q.id);
  const n: NewNotification = {
    type: parent ? "reply" : "answer",
    actor: actorOf(m.author),
    questionId: q.id,
    messageId: m.id,
    answerId: rootId ?? m.id,
    title: q.title,
    text: m.content,
  };
  const skip = new Set([m.author.id]);
  if (parent) {
    notifyInOp(op, parent.author.id, n, m.createdAt);
    return { fanOut: null, skip };
  }
  skip.add(q.author.id);
  if ((await kv.get(keys.follow(q.id, q.author.id))).value) {
    notifyInOp(op, q.author.id, n, m.createdAt);
  }
  return { fanOut: n, skip };
}

/** After the message's commit (under `afterCommit`): the bounded fan-out. */
export async function afterMessage(kv: Deno.Kv, a: AfterMessage, now: number): Promise<void> {
  if (a.fanOut) await fanOutAnswer(kv, a.fanOut, a.skip, now);
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
    actor: actorOf(q.author),
    questionId: q.id,
    messageId: m.id,
    answerId: m.id,
    title: q.title,
    text: m.content,
  }, now);
}

/** After an up-vote's commit (under `afterCommit`): the author's `upvotes` entry of the day. */
export async function afterUpvote(
  kv: Deno.Kv,
  target: { type: "question" | "message"; id: string; authorId: string; questionId: string },
  voterId: string,
  now: number,
  count = 1,
): Promise<void> {
  if (target.authorId === voterId) return;
  const [q, m] = await kv.getMany<[QuestionRecord, MessageRecord]>([
    keys.question(target.questionId),
    target.type === "message" ? keys.message(target.id) : keys.question("\u0000none"),
  ]);
  if (!q.value) return;
  let answerId: string | null = null;
  if (m.value) {
    answerId = m.value.id;
    if (m.value.replyTo) {
      const { rootAnswerOf } = await import("../community/messages.ts");
      answerId = await rootAnswerOf(kv, m.value);
    }
  }
  await notifyUpvote(kv, {
    recipientId: target.authorId,
    voterId,
    targetType: target.type,
    targetId: target.id,
    questionId: q.value.id,
    answerId,
    title: q.value.title,
    text: m.value ? m.value.content : q.value.description || q.value.title,
    count,
  }, now);
}

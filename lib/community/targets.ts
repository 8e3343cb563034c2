/**
 * Vote and favorite targets: a question or a message, looked up by type and id, with
 * what the write paths need from it (its author, for statistics, and its question).
 *
 * @module
 */
import { isLookupId, keys } from "../kv/keys.ts";
import type { MessageRecord } from "./messages/model.ts";
import type { QuestionRecord } from "./questions/model.ts";
import { isPublic } from "./visibility.ts";

/** What can be voted on and favorited. */
export type TargetType = "question" | "message";

/** The target types, for validation. */
export const TARGET_TYPES = ["question", "message"] as const;

/** A resolved target. */
export interface TargetInfo {
  type: TargetType;
  id: string;
  /** Author of the target (receives up-votes and favorites in their statistics). */
  authorId: string;
  /** The question itself, or the message's owning question. */
  questionId: string;
}

/**
 * Resolve a target, or null when it does not exist or is deleted.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const t = await findTarget(kv, "message", "msg-abc");
 * t?.questionId; // the owning question
 * ```
 */
export async function findTarget(
  kv: Deno.Kv,
  type: TargetType,
  id: string,
): Promise<TargetInfo | null> {
  if (!isLookupId(id)) return null;
  if (type === "question") {
    const q = (await kv.get<QuestionRecord>(keys.question(id))).value;
    return q && isPublic(q) ? { type, id, authorId: q.author.id, questionId: q.id } : null;
  }
  const m = (await kv.get<MessageRecord>(keys.message(id))).value;
  return m && isPublic(m) ? { type, id, authorId: m.author.id, questionId: m.questionId } : null;
}

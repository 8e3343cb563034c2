/**
 * A question's version: a counter that every change an open question page must see moves,
 * in the change's own atomic op — an answer or reply, a vote, an edit, a delete, an accept,
 * a moderation of the question or of a message in its thread. The page's event stream
 * (`GET /api/questions/:id/events`, lib/notifications/question_events.ts) watches it with
 * `kv.watch`, so a change committed by any instance shows.
 *
 * @module
 */
import { addToCounter } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";

/**
 * Move question `questionId`'s version inside `op` (a `sum`, so concurrent changes never
 * conflict on it).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const op = kv.atomic();
 * bumpQuestion(op, "q-1"); // beside the change itself, before the op commits
 * ```
 */
export function bumpQuestion(op: Deno.AtomicOperation, questionId: string): void {
  addToCounter(op, keys.questionVersion(questionId), 1);
}

/**
 * The /ask form's submission: a question created at most once per form (its hidden
 * idempotency key), with the outcomes the page shows in words.
 *
 * @module
 */
import { limitMessage } from "../limits/posting.ts";
import { sanctionMessage } from "../moderation/sanctions.ts";
import { createOnce } from "./idempotency.ts";
import type { AskQuestionResult } from "./questions/write.ts";
import type { QuestionRecord } from "./questions/model.ts";

/** The form's outcome: the question to show, or why not. */
export type SubmitQuestionResult =
  | { ok: true; questionId: string }
  | { ok: false; reason: "rate_limited"; message: string; retryAfter: number }
  | { ok: false; reason: "restricted"; message: string }
  | { ok: false; reason: "in_progress" | "no_author" };

/**
 * Create the form's question once: a repeat with the same key (double click, a retried
 * POST) answers the question the first created.
 *
 * @example
 * ```ts
 * import { askQuestion } from "@/lib/community/questions/write.ts";
 * declare const kv: Deno.Kv;
 * const r = await submitQuestionForm(kv, "user:u1", crypto.randomUUID(), Date.now(), (extra) =>
 *   askQuestion(kv, { userId: "u1", title: "Why KV?", createdBy: "user" }, { extra }));
 * ```
 */
export async function submitQuestionForm(
  kv: Deno.Kv,
  caller: string,
  key: string,
  now: number,
  ask: (
    extra: (op: Deno.AtomicOperation, q: QuestionRecord) => void,
  ) => Promise<AskQuestionResult>,
): Promise<SubmitQuestionResult> {
  const r = await createOnce(kv, caller, key, now, (attach) => ask((op, q) => attach(op, q.id)));
  if (r.state === "in_progress") return { ok: false, reason: "in_progress" };
  if (r.state === "replayed") return { ok: true, questionId: r.resourceId };
  const result = r.result;
  if (result.ok) return { ok: true, questionId: result.question.id };
  if (result.reason === "rate_limited") {
    return {
      ok: false,
      reason: "rate_limited",
      message: limitMessage(result),
      retryAfter: result.retryAfter,
    };
  }
  if (result.reason === "restricted") {
    return { ok: false, reason: "restricted", message: sanctionMessage(result.sanction) };
  }
  return { ok: false, reason: "no_author" };
}

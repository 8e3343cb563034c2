/**
 * Inviting an expert to a question (docs/interface.md#expert-panel): once per expert and question, the
 * invitation becomes a task of the question's panel job (./job.ts).
 *
 * @module
 */
import { type Restricted, restriction } from "../moderation/sanctions.ts";
import { isPublic } from "../community/visibility.ts";
import { keys } from "../kv/keys.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { expertById } from "./experts.ts";
import { addPanelTasks } from "./job.ts";
import { expertsInThread, type PanelJob, type PanelServices } from "./model.ts";

/** Invitations per person per hour. */
export const INVITES_PER_HOUR = 10;

/** Why an invitation failed. */
export type InviteResult =
  | { ok: true }
  | { ok: false; reason: "question_not_found" | "expert_not_found" | "already_invited" }
  | Restricted;

/**
 * Ask one expert to answer a question; once per expert and question, and not an expert
 * already in its thread.
 *
 * @example
 * ```ts
 * declare const services: import("./model.ts").PanelServices;
 * const r = await inviteExpert(services, "q-abc", "omar", "u1");
 * ```
 */
export async function inviteExpert(
  services: PanelServices,
  questionId: string,
  expertId: string,
  userId: string,
): Promise<InviteResult> {
  const { kv } = services;
  if (!expertById(expertId)) return { ok: false, reason: "expert_not_found" };
  // A silenced person's invitation would post for them: refused (docs/interface.md#sanctions).
  const restricted = await restriction(kv, userId, services.now());
  if (restricted) return restricted;
  const [question, mark, job] = await kv.getMany<[QuestionRecord, unknown, PanelJob]>([
    keys.question(questionId),
    keys.expertInvite(questionId, expertId),
    keys.panelJob(questionId),
  ]);
  const q = question.value;
  // The expert's answer is public: never on a question others cannot see.
  if (!q || !isPublic(q)) return { ok: false, reason: "question_not_found" };
  // Once per expert and question, and never one already in the thread (the panel's own
  // experts included): they would only repeat themselves.
  if (mark.value || expertsInThread(job.value).includes(expertId)) {
    return { ok: false, reason: "already_invited" };
  }
  const ok = await addPanelTasks(
    services,
    questionId,
    [{ expertId, cause: "invite" }],
    (op) =>
      op.check(mark).set(keys.expertInvite(questionId, expertId), {
        by: userId,
        at: services.now(),
      }),
  );
  return ok ? { ok: true } : { ok: false, reason: "already_invited" };
}

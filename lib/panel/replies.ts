/**
 * An expert answering a person who replied to them (docs/interface.md#expert-panel): the answer becomes a
 * task of the question's panel job (./job.ts), within a per-person, per-thread limit.
 *
 * @module
 */
import { keys } from "../kv/keys.ts";
import { hitRateLimit } from "../limits/window.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import { addPanelTasks } from "./job.ts";
import type { PanelServices } from "./model.ts";

/** Expert replies per person and thread per hour. */
export const EXPERT_REPLIES_PER_THREAD_HOUR = 3;

/**
 * After a person replied to an expert's message: that expert answers, at most
 * {@link EXPERT_REPLIES_PER_THREAD_HOUR} times per person and thread per hour. Never
 * throws (the person's reply is committed already).
 *
 * @example
 * ```ts
 * import type { MessageRecord } from "@/lib/community/messages/model.ts";
 * declare const services: import("./model.ts").PanelServices;
 * declare const reply: MessageRecord;
 * const scheduled = await expertAnswersReply(services, reply);
 * ```
 */
export async function expertAnswersReply(
  services: PanelServices,
  reply: MessageRecord,
): Promise<boolean> {
  try {
    if (!reply.replyTo || reply.authorType === "ai") return false;
    const parent = (await services.kv.get<MessageRecord>(keys.message(reply.replyTo))).value;
    if (!parent || parent.authorType !== "ai" || !parent.expertId) return false;
    const r = await hitRateLimit(
      services.kv,
      "expert_reply",
      `${reply.author.id}:${reply.questionId}`,
      EXPERT_REPLIES_PER_THREAD_HOUR,
      3_600_000,
      services.now(),
    );
    if (!r.allowed) return false;
    return await addPanelTasks(services, reply.questionId, [{
      expertId: parent.expertId,
      replyTo: reply.id,
      cause: "reply",
    }]);
  } catch (err) {
    console.error("Expert reply could not be scheduled", err);
    return false;
  }
}

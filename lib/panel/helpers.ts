/**
 * What a person asks of the experts (DESIGN.md §9): an invitation, an expert's reply to
 * a person who replied to them, a draft answer for the composer, and question ideas.
 * Invitations and replies become tasks of the question's panel job (./job.ts).
 *
 * @module
 */
import { z } from "zod";
import { keys } from "../kv/keys.ts";
import { hitRateLimit } from "../limits/window.ts";
import { jsonAnswer } from "../llm/json.ts";
import type { LlmClient } from "../llm/types.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { expertById } from "./experts.ts";
import { addPanelTasks, PANEL_CALL_MS, panelMetrics, type PanelServices } from "./job.ts";

/** Expert replies per person and thread per hour. */
export const EXPERT_REPLIES_PER_THREAD_HOUR = 3;
/** Invitations per person per hour. */
export const INVITES_PER_HOUR = 10;
/** Drafts and idea batches per person per minute (each). */
export const HELPERS_PER_MINUTE = 15;

/** Why an invitation failed. */
export type InviteResult =
  | { ok: true }
  | { ok: false; reason: "question_not_found" | "expert_not_found" | "already_invited" };

/**
 * Ask one expert to answer a question; once per expert and question.
 *
 * @example
 * ```ts
 * declare const services: import("./job.ts").PanelServices;
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
  const q = (await kv.get<QuestionRecord>(keys.question(questionId))).value;
  if (!q || q.deletedAt !== undefined) return { ok: false, reason: "question_not_found" };
  const mark = await kv.get(keys.expertInvite(questionId, expertId));
  if (mark.value) return { ok: false, reason: "already_invited" };
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

/**
 * Experts who already wrote on a question (messages and invitations), by id.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const ids = await expertsOnQuestion(kv, "q-abc");
 * ```
 */
export async function expertsOnQuestion(kv: Deno.Kv, questionId: string): Promise<string[]> {
  const out = new Set<string>();
  for await (const e of kv.list({ prefix: ["expert_invites", questionId] })) {
    out.add(e.key[2] as string);
  }
  const job = (await kv.get<{ tasks: { expertId: string }[] }>(keys.panelJob(questionId))).value;
  for (const t of job?.tasks ?? []) out.add(t.expertId);
  return [...out];
}

/**
 * After a person replied to an expert's message: that expert answers, at most
 * {@link EXPERT_REPLIES_PER_THREAD_HOUR} times per person and thread per hour. Never
 * throws (the person's reply is committed already).
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

/**
 * A draft answer (or reply) for the composer; never posted by itself.
 *
 * @example
 * ```ts
 * import type { LlmClient } from "@/lib/llm/types.ts";
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * declare const llm: LlmClient;
 * declare const q: QuestionRecord;
 * const text = await draftAnswer(llm, q, null);
 * ```
 * @throws {LlmError} when the model cannot be reached.
 */
export async function draftAnswer(
  llm: LlmClient,
  q: QuestionRecord,
  replyTo: MessageRecord | null,
): Promise<string> {
  panelMetrics.modelCalls++;
  const text = await llm.chat([
    {
      role: "system",
      content: "You help a person write a forum answer. Plain, helpful, first person, " +
        "no greetings. The person will edit it before posting.",
    },
    {
      role: "user",
      content: `Topic: ${q.title}\n${q.description.slice(0, 1500)}\n\n` +
        (replyTo ? `Reply to ${replyTo.author.name}: "${replyTo.content.slice(0, 800)}"\n` : "") +
        "Write 200 to 700 characters.",
    },
  ], { temperature: 0.6, maxTokens: 350, timeoutMs: PANEL_CALL_MS });
  return text.trim().slice(0, 4000);
}

/** One question idea. */
export const Idea = z.object({
  title: z.string().min(2).max(120),
  description: z.string().max(1000),
  tags: z.array(z.string().max(30)).max(5),
});
const Ideas = z.object({ ideas: z.array(Idea).min(1) });

/**
 * Three question ideas for a keyword (another batch each call: `seed` varies the ask).
 *
 * @example
 * ```ts
 * import type { LlmClient } from "@/lib/llm/types.ts";
 * declare const llm: LlmClient;
 * const ideas = await questionIdeas(llm, "sourdough", 1);
 * ```
 * @throws {LlmError} when the model cannot be reached.
 */
export async function questionIdeas(
  llm: LlmClient,
  keyword: string,
  seed: number,
): Promise<z.infer<typeof Idea>[]> {
  panelMetrics.modelCalls++;
  const tag = keyword.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "")
    .slice(0, 30) || "ideas";
  const fallback = [
    `What is the best way to start with ${keyword}?`,
    `What do people get wrong about ${keyword}?`,
    `How has ${keyword} changed in the last five years?`,
  ].map((title) => ({ title: title.slice(0, 120), description: "", tags: [tag] }));
  const { value } = await jsonAnswer(
    llm,
    [
      {
        role: "system",
        content: "Suggest three distinct, specific questions people could ask on a Q&A site. " +
          'Reply with JSON: {"ideas": [{"title": "a question of 20 to 100 characters", ' +
          '"description": "one sentence of context", "tags": ["tag"]}]}',
      },
      { role: "user", content: `Topic: ${keyword}\nBatch ${seed}` },
    ],
    Ideas,
    { temperature: 0.9, maxTokens: 400, timeoutMs: PANEL_CALL_MS, fallback: { ideas: fallback } },
  );
  const ideas = value.ideas.slice(0, 3).map((i) => ({
    ...i,
    tags: i.tags.map((t) => t.toLowerCase().trim()).filter(Boolean).slice(0, 5),
  }));
  while (ideas.length < 3) ideas.push(fallback[ideas.length]);
  return ideas;
}

/**
 * True when `posted` is still mostly the AI draft: at least 60% of its words come from
 * the draft (so "substantially edited" text loses the label).
 *
 * @example
 * ```ts
 * mostlyDraft("use a queue and retry", "use a queue and retry"); // true
 * ```
 */
export function mostlyDraft(posted: string, draft: string): boolean {
  const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const pool = new Set(words(draft));
  const mine = words(posted);
  if (mine.length === 0 || pool.size === 0) return false;
  return mine.filter((w) => pool.has(w)).length / mine.length >= 0.6;
}

/**
 * The model's help to a person who writes (docs/interface.md#expert-panel): a draft answer for the
 * composer, the test of whether a posted answer is still mostly that draft, and question
 * ideas for the ask page. Nothing here posts anything by itself.
 *
 * @module
 */
import { z } from "zod";
import { jsonAnswer } from "../llm/json.ts";
import type { LlmClient } from "../llm/types.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { panelMetrics } from "./metrics.ts";
import { PANEL_CALL_MS } from "./model.ts";

/** Drafts and idea batches per person per minute (each). */
export const HELPERS_PER_MINUTE = 15;

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

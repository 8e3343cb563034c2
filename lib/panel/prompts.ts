/**
 * The prompt of one expert's message on a question's thread.
 *
 * @module
 */
import type { ChatMessage } from "../llm/types.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import type { Expert } from "./experts.ts";

/**
 * The prompt of one expert message: the expert's voice, the question, the last eight
 * messages of the thread, and what to do (answer, or reply to `replyTo`).
 *
 * @example
 * ```ts
 * import { EXPERTS } from "./experts.ts";
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * declare const q: QuestionRecord;
 * const messages = expertPrompt(EXPERTS[0], q, [], null);
 * ```
 */
export function expertPrompt(
  expert: Expert,
  q: QuestionRecord,
  thread: MessageRecord[],
  replyTo: MessageRecord | null,
): ChatMessage[] {
  const recent = thread.slice(-8).map((m) => `${m.author.name}: ${m.content.slice(0, 600)}`)
    .join("\n");
  const task = replyTo
    ? `Reply to ${replyTo.author.name}, who wrote: "${replyTo.content.slice(0, 800)}". ` +
      `Agree or disagree with reasons, and add something new.`
    : `Answer the question from your field.`;
  return [
    {
      role: "system",
      content: `You are ${expert.name}, ${expert.title}. Your voice: ${expert.voice}. ` +
        `You sit on Parley's AI expert panel, clearly labelled as AI. Be concrete and honest ` +
        `about uncertainty; no greetings, no sign-off, never claim to be human.`,
    },
    {
      role: "user",
      content: `Topic: ${q.title}\n${q.description.slice(0, 1500)}\n\n` +
        (recent ? `Discussion so far:\n${recent}\n\n` : "") +
        `${task} Write 200 to 600 characters.`,
    },
  ];
}

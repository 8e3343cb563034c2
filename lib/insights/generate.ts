/**
 * One model call per map or summary (lib/llm/json.ts: JSON mode, one repair attempt for
 * an answer that is not even the rough shape), then ./repair.ts makes what came back hold.
 * Null when nothing usable came back; a model that cannot be reached throws `LlmError`.
 *
 * @module
 */
import { jsonAnswer } from "../llm/json.ts";
import type { LlmClient } from "../llm/types.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import type { OpinionMapValue, ThreadSummaryValue } from "../schemas/insights.ts";
import type { InsightAnswer } from "./answers.ts";
import { mapPrompt, summaryPrompt } from "./prompts.ts";
import { RawMap, RawSummary, repairMap, repairSummary } from "./repair.ts";

/**
 * Ask the model for an opinion map of `answers`.
 *
 * @example
 * ```ts
 * import type { LlmClient } from "@/lib/llm/types.ts";
 * declare const llm: LlmClient;
 * const map = await generateMap(llm, { title: "Tabs or spaces?", description: "" }, []);
 * ```
 * @throws {LlmError} when the model cannot be reached or times out.
 */
export async function generateMap(
  llm: LlmClient,
  q: Pick<QuestionRecord, "title" | "description">,
  answers: InsightAnswer[],
  signal?: AbortSignal,
): Promise<OpinionMapValue | null> {
  const { value } = await jsonAnswer(llm, mapPrompt(q, answers), RawMap, {
    temperature: 0.2,
    maxTokens: 3000,
    signal,
    fallback: (candidate) => candidate as never,
  });
  return repairMap(value, answers);
}

/**
 * Ask the model for a short summary of `answers`.
 *
 * @example
 * ```ts
 * import type { LlmClient } from "@/lib/llm/types.ts";
 * declare const llm: LlmClient;
 * const summary = await generateSummary(llm, { title: "Tabs or spaces?", description: "" }, []);
 * ```
 * @throws {LlmError} when the model cannot be reached or times out.
 */
export async function generateSummary(
  llm: LlmClient,
  q: Pick<QuestionRecord, "title" | "description">,
  answers: InsightAnswer[],
  signal?: AbortSignal,
): Promise<ThreadSummaryValue | null> {
  const { value } = await jsonAnswer(llm, summaryPrompt(q, answers), RawSummary, {
    temperature: 0.3,
    maxTokens: 700,
    signal,
    fallback: (candidate) => candidate as never,
  });
  return repairSummary(value, answers);
}

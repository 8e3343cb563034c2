/**
 * Choosing a roundtable's panel: the host's experts as given, or 3–5 chosen by the model
 * for the topic — checked against the catalogue (lib/panel/experts.ts), topped up from the
 * topic ranking when the model names too few, and the topic ranking alone when the model
 * cannot answer.
 *
 * @module
 */
import { z } from "zod";
import { jsonAnswer } from "../llm/json.ts";
import type { LlmClient } from "../llm/types.ts";
import { type Expert, expertById, pickExpertsByTopic } from "../panel/experts.ts";
import { ROUNDTABLE_MAX_EXPERTS, ROUNDTABLE_MIN_EXPERTS } from "../input_limits.ts";
import { selectionPrompt } from "./prompts.ts";

const Selection = z.object({ expertIds: z.array(z.string()).min(1).max(8) });

/** How long the choice may take before the topic ranking stands in (ms). */
const SELECTION_TIMEOUT_MS = 20_000;

/**
 * The panel for a topic: `given` when the host named experts, else the model's choice.
 *
 * @example
 * ```ts
 * const experts = await chooseRoundtableExperts(undefined, "Cities without cars?", "", ["ada", "kwame", "ingrid"]);
 * experts.experts.map((e) => e.id); // ["ada", "kwame", "ingrid"]
 * ```
 */
export async function chooseRoundtableExperts(
  llm: LlmClient | undefined,
  topic: string,
  background: string,
  given?: string[],
): Promise<{ experts: Expert[]; chosenBy: "model" | "host" }> {
  if (given) {
    return {
      experts: given.map(expertById).filter((e): e is Expert => !!e),
      chosenBy: "host",
    };
  }
  const ranked = pickExpertsByTopic(`${topic}\n${background}`, ROUNDTABLE_MIN_EXPERTS);
  if (!llm) return { experts: ranked, chosenBy: "model" };
  try {
    const { value } = await jsonAnswer(llm, selectionPrompt(topic, background), Selection, {
      temperature: 0.2,
      maxTokens: 80,
      timeoutMs: SELECTION_TIMEOUT_MS,
      fallback: { expertIds: [] },
    });
    const picked = [...new Set(value.expertIds)].map(expertById)
      .filter((e): e is Expert => !!e).slice(0, ROUNDTABLE_MAX_EXPERTS);
    for (const e of ranked) {
      if (picked.length < ROUNDTABLE_MIN_EXPERTS && !picked.includes(e)) picked.push(e);
    }
    return { experts: picked, chosenBy: "model" };
  } catch {
    return { experts: ranked, chosenBy: "model" };
  }
}

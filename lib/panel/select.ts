/**
 * Choosing a new question's panel: the model picks from the roster, the topic ranking
 * (./experts.ts) fills in and stands in when the model cannot answer; the chosen experts
 * then write {@link PANEL_ROUNDS} rounds.
 *
 * @module
 */
import { z } from "zod";
import { jsonAnswer } from "../llm/json.ts";
import type { LlmClient } from "../llm/types.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { type Expert, expertById, EXPERTS, PANEL_SIZE, pickExpertsByTopic } from "./experts.ts";
import { panelMetrics } from "./metrics.ts";
import { PANEL_CALL_MS, PANEL_ROUNDS, type PanelTask } from "./model.ts";

const Selection = z.object({ experts: z.array(z.string()).min(1).max(PANEL_SIZE) });

/**
 * The panel for a question: model-assisted, the topic ranking as fallback.
 *
 * @example
 * ```ts
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * declare const q: QuestionRecord;
 * const experts = await chooseExperts(undefined, q); // the topic ranking alone
 * ```
 */
export async function chooseExperts(
  llm: LlmClient | undefined,
  q: QuestionRecord,
): Promise<Expert[]> {
  const text = `${q.title}\n${q.description}\n${q.tags.join(" ")}`;
  const fallback = pickExpertsByTopic(text);
  if (!llm) return fallback;
  try {
    panelMetrics.modelCalls++;
    const roster = EXPERTS.map((e) => `${e.id}: ${e.title} (${e.expertise.join(", ")})`).join("\n");
    const { value } = await jsonAnswer(
      llm,
      [
        {
          role: "system",
          content:
            `Pick the ${PANEL_SIZE} experts best placed to discuss a question. Experts:\n${roster}\n` +
            `Reply with JSON: {"experts": ["id", "id", "id"]}`,
        },
        { role: "user", content: `Topic: ${q.title}\n${q.description}`.slice(0, 2000) },
      ],
      Selection,
      { temperature: 0.2, maxTokens: 60, timeoutMs: PANEL_CALL_MS, fallback: { experts: [] } },
    );
    const picked = [...new Set(value.experts)].map(expertById).filter((e): e is Expert => !!e);
    for (const e of fallback) if (picked.length < PANEL_SIZE && !picked.includes(e)) picked.push(e);
    return picked.slice(0, PANEL_SIZE);
  } catch {
    return fallback;
  }
}

/**
 * The tasks of a panel's rounds: every expert once per round, in order; from round 2 on
 * each answers the next panelist's message of round 1. `firstTask` is the number the
 * first of them will have in the job's task list.
 *
 * @example
 * ```ts
 * import { EXPERTS } from "./experts.ts";
 * const tasks = panelRounds(EXPERTS.slice(0, 3), 0);
 * tasks[3]; // { expertId: "ada", round: 2, cause: "panel", replyToTask: 1 }
 * ```
 */
export function panelRounds(experts: Expert[], firstTask: number): PanelTask[] {
  const tasks: PanelTask[] = [];
  for (let round = 1; round <= PANEL_ROUNDS; round++) {
    experts.forEach((e, i) => {
      const t: PanelTask = { expertId: e.id, round, cause: "panel" };
      // Round 2 answers the next panelist's round-1 message.
      if (round > 1 && experts.length > 1) {
        t.replyToTask = firstTask + (i + 1) % experts.length;
      }
      tasks.push(t);
    });
  }
  return tasks;
}

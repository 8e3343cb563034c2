/**
 * The answers a map or summary is made from, read by the job (never by a request): every
 * top-level answer of the question, kept when it is a person's or an agent's (not the AI
 * panel's) and public (not hidden, not deleted). A long thread is read whole here — one
 * bounded `list` of its answer index and `getMany`s of 10 — because the job runs rarely and
 * apart from any request; the model is shown at most {@link MAP_NODES_MAX} of them.
 *
 * @module
 */
import { getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { listAnswerOrder } from "../community/answer_order.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import { isPublic } from "../community/visibility.ts";
import { MAP_NODES_MAX } from "../schemas/insights.ts";
import { hashText } from "../llm/standin/read_prompt.ts";

/** Most answer rows a job reads (a thread past this is summarized from its first ones). */
export const ANSWERS_READ_MAX = 5_000;

/** One answer as a prompt shows it. */
export interface InsightAnswer {
  id: string;
  /** The label the prompt gives it (`A1`, `A2`, …). */
  label: string;
  author: string;
  content: string;
  accepted: boolean;
  revision: number;
}

/** What the job read of a thread. */
export interface ThreadMaterial {
  /** Every public answer by a person or agent. */
  count: number;
  /** Their ids. */
  eligible: Set<string>;
  /** The ones shown to the model (at most {@link MAP_NODES_MAX}), labelled A1, A2, … */
  shown: InsightAnswer[];
  /** Ids and revisions of `shown`, hashed. */
  signature: string;
}

/** True for a message a map or summary may use. */
export function isInsightAnswer(m: MessageRecord): boolean {
  return !m.replyTo && m.authorType !== "ai" && isPublic(m) && m.content.trim() !== "";
}

/**
 * Read a question's answers as a map or summary needs them: all counted, the accepted one
 * and the best-scored ones shown (oldest first when the thread is short enough to show
 * whole).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const material = await readMaterial(kv, "q-abc", null);
 * material.count; material.shown[0]?.label; // "A1"
 * ```
 */
export async function readMaterial(
  kv: Deno.Kv,
  questionId: string,
  accepted: string | null,
): Promise<ThreadMaterial> {
  const ids: string[] = [];
  const iter = kv.list<string>({ prefix: keys.questionAnswersPrefix(questionId) }, {
    limit: ANSWERS_READ_MAX,
    batchSize: 500,
  });
  for await (const e of iter) ids.push(e.value);
  const records = (await getAll<MessageRecord>(kv, ids.map(keys.message)))
    .flatMap((e) => e.value && e.value.questionId === questionId ? [e.value] : [])
    .filter(isInsightAnswer);
  let chosen = records;
  if (records.length > MAP_NODES_MAX) {
    // The most-voted ones (the score-ordered rows), the accepted one first.
    const byId = new Map(records.map((m) => [m.id, m]));
    const order = await listAnswerOrder(kv, questionId, MAP_NODES_MAX * 3);
    const picked = [accepted, ...order].filter((id): id is string => !!id && byId.has(id));
    const unique = [...new Set(picked)];
    // Rows not built yet (an older question): the oldest ones fill the rest.
    for (const m of records) {
      if (unique.length >= MAP_NODES_MAX) break;
      if (!unique.includes(m.id)) unique.push(m.id);
    }
    const keep = new Set(unique.slice(0, MAP_NODES_MAX));
    chosen = records.filter((m) => keep.has(m.id));
  }
  const shown = chosen.map((m, i): InsightAnswer => ({
    id: m.id,
    label: `A${i + 1}`,
    author: m.author.name,
    content: m.content,
    accepted: m.id === accepted,
    revision: m.revision ?? 1,
  }));
  const signature = shown.length === 0
    ? "none"
    : hashText(shown.map((a) => `${a.id}@${a.revision}${a.accepted ? "*" : ""}`).join(","))
      .toString(36);
  return { count: records.length, eligible: new Set(records.map((m) => m.id)), shown, signature };
}

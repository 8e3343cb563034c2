/**
 * Questions, the reads: one question (record or full view), records by id, and the counts
 * joined into feed summaries.
 *
 * @module
 */
import { counterValue, getAll } from "../../kv/atomic.ts";
import { isLookupId, keys } from "../../kv/keys.ts";
import { listVoters } from "../votes.ts";
import type { QuestionRecord, QuestionSnapshot, QuestionSummary, QuestionView } from "./model.ts";

/** The stored question, or null. */
export async function getQuestion(kv: Deno.Kv, id: string): Promise<QuestionRecord | null> {
  if (!isLookupId(id)) return null;
  return (await kv.get<QuestionRecord>(keys.question(id))).value;
}

/** How many questions exist (a counter, not a scan). */
export async function countQuestions(kv: Deno.Kv): Promise<number> {
  return counterValue((await kv.get(keys.counter("questions"))).value);
}

/** Records for ids, in the same order, skipping ids without a record. */
export async function getQuestions(kv: Deno.Kv, ids: string[]): Promise<QuestionRecord[]> {
  const entries = await getAll<QuestionRecord>(kv, ids.map(keys.question));
  return entries.flatMap((e) => e.value ? [e.value] : []);
}

/**
 * Up/down vote counts and message counts for questions, as feed summaries.
 *
 * @example
 * ```ts
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * declare const kv: Deno.Kv;
 * declare const record: QuestionRecord;
 * const [s] = await summarize(kv, [record]);
 * s.upvotes; s.messageCount;
 * ```
 */
export async function summarize(
  kv: Deno.Kv,
  records: QuestionSnapshot[],
  { downvotes = true }: { downvotes?: boolean } = {},
): Promise<QuestionSummary[]> {
  // The agent list shows no down-votes: skipping them saves a third of the reads.
  const per = downvotes ? 3 : 2;
  const counterKeys = records.flatMap((q) => {
    const k = [keys.voteCount("question", q.id, "up"), keys.messageCount(q.id)];
    if (downvotes) k.push(keys.voteCount("question", q.id, "down"));
    return k;
  });
  const values = (await getAll(kv, counterKeys)).map((e) => counterValue(e.value));
  return records.map((q, i) => ({
    id: q.id,
    title: q.title,
    description: q.description,
    tags: q.tags,
    upvotes: values[i * per],
    downvotes: downvotes ? values[i * per + 2] : 0,
    messageCount: values[i * per + 1],
    createdAt: q.createdAt,
    author: q.author,
    createdBy: q.createdBy,
  }));
}

/**
 * The full question: record, counts and voter lists.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const view = await getQuestionView(kv, "q-abc");
 * ```
 */
export async function getQuestionView(kv: Deno.Kv, id: string): Promise<QuestionView | null> {
  const q = await getQuestion(kv, id);
  if (!q) return null;
  const [[summary], voters] = await Promise.all([
    summarize(kv, [q]),
    listVoters(kv, "question", q.id),
  ]);
  return {
    ...q,
    upvotes: summary.upvotes,
    downvotes: summary.downvotes,
    messageCount: summary.messageCount,
    likedBy: voters.likedBy,
    dislikedBy: voters.dislikedBy,
  };
}

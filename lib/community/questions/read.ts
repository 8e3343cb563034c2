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

/** Who is looking: a deleted question is shown only to its author and moderators. */
export interface Viewer {
  userId: string;
  moderator?: boolean;
}

/** True when `viewer` may see the deleted question `q` (its author or a moderator). */
export function maySeeDeleted(q: QuestionRecord, viewer: Viewer | null | undefined): boolean {
  return !!viewer && (viewer.moderator === true || viewer.userId === q.author.id);
}

/**
 * The stored question, or null — also null for a soft-deleted one (DESIGN.md §9: it
 * answers 404), unless `viewer` is its author or a moderator.
 */
export async function getQuestion(
  kv: Deno.Kv,
  id: string,
  viewer?: Viewer | null,
): Promise<QuestionRecord | null> {
  if (!isLookupId(id)) return null;
  const q = (await kv.get<QuestionRecord>(keys.question(id))).value;
  if (q?.deletedAt !== undefined && !maySeeDeleted(q, viewer)) return null;
  return q;
}

/** How many questions exist (a counter, not a scan). */
export async function countQuestions(kv: Deno.Kv): Promise<number> {
  return counterValue((await kv.get(keys.counter("questions"))).value);
}

/** Records for ids, in the same order, skipping ids without a record and deleted ones. */
export async function getQuestions(kv: Deno.Kv, ids: string[]): Promise<QuestionRecord[]> {
  const entries = await getAll<QuestionRecord>(kv, ids.map(keys.question));
  return entries.flatMap((e) => e.value && e.value.deletedAt === undefined ? [e.value] : []);
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
  // The agent list shows no down-votes: skipping them saves a reads.
  const per = downvotes ? 5 : 4;
  const counterKeys = records.flatMap((q) => {
    const k = [
      keys.voteCount("question", q.id, "up"),
      keys.messageCount(q.id),
      keys.answerCount(q.id),
      keys.acceptedAnswer(q.id),
    ];
    if (downvotes) k.push(keys.voteCount("question", q.id, "down"));
    return k;
  });
  const entries = await getAll(kv, counterKeys);
  const values = entries.map((e) => counterValue(e.value));
  return records.map((q, i) => ({
    id: q.id,
    title: q.title,
    description: q.description,
    tags: q.tags,
    upvotes: values[i * per],
    downvotes: downvotes ? values[i * per + 4] : 0,
    messageCount: values[i * per + 1],
    answerCount: values[i * per + 2],
    acceptedMessageId: (entries[i * per + 3].value as string | null) ?? null,
    editedAt: q.editedAt ?? null,
    createdAt: q.createdAt,
    author: q.author,
    createdBy: q.createdBy,
  }));
}

/**
 * The full question: record, counts and voter lists, with `editedAt`, `answerCount` and
 * `acceptedMessageId`. Null for an unknown id, and for a deleted question unless `viewer`
 * is its author or a moderator (who see it with `deletedAt`).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const view = await getQuestionView(kv, "q-abc");
 * ```
 */
export async function getQuestionView(
  kv: Deno.Kv,
  id: string,
  viewer?: Viewer | null,
): Promise<QuestionView | null> {
  const q = await getQuestion(kv, id, viewer);
  if (!q) return null;
  return await questionViewOf(kv, q);
}

/** The view of a record (counts, voters and lifecycle fields joined in). */
export async function questionViewOf(kv: Deno.Kv, q: QuestionRecord): Promise<QuestionView> {
  const [[summary], voters] = await Promise.all([
    summarize(kv, [q]),
    listVoters(kv, "question", q.id),
  ]);
  const { revision: _revision, deletedBy: _deletedBy, ...record } = q;
  return {
    ...record,
    editedAt: q.editedAt ?? null,
    upvotes: summary.upvotes,
    downvotes: summary.downvotes,
    messageCount: summary.messageCount,
    answerCount: summary.answerCount,
    acceptedMessageId: summary.acceptedMessageId,
    likedBy: voters.likedBy,
    dislikedBy: voters.dislikedBy,
  };
}

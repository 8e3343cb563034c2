/**
 * Questions: records, the newest-first feed, and the total. (Votes, messages and the
 * write paths join this module with the community features.)
 *
 * @module
 */
import { counterValue, invertTime, listNewestFirst } from "./kv/atomic.ts";
import { keys } from "./kv/keys.ts";

/** Author snapshot kept on questions and messages. */
export interface Author {
  id: string;
  name: string;
  avatar: string | null;
}

/** A question as stored (vote lists and counts live under their own keys). */
export interface QuestionRecord {
  id: string;
  title: string;
  description: string;
  tags: string[];
  author: Author;
  createdBy: "user" | "agent";
  createdAt: number;
  status: "active";
  discussionRounds: number;
}

/** Index key of a question in the newest-first feed. */
export function feedKey(q: Pick<QuestionRecord, "id" | "createdAt">): Deno.KvKey {
  return keys.questionByTime(invertTime(q.createdAt), q.id);
}

/**
 * One page of questions, newest first.
 *
 * @example
 * ```ts
 * const { questions, cursor } = await listQuestionsNewestFirst(kv, { limit: 20 });
 * ```
 */
export async function listQuestionsNewestFirst(
  kv: Deno.Kv,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<{ questions: QuestionRecord[]; cursor?: string }> {
  const page = await listNewestFirst<string>(kv, keys.questionsByTimePrefix(), { limit, cursor });
  const records: QuestionRecord[] = [];
  for (let i = 0; i < page.values.length; i += 10) {
    const got = await kv.getMany<QuestionRecord[]>(page.values.slice(i, i + 10).map(keys.question));
    for (const e of got) if (e.value) records.push(e.value);
  }
  return { questions: records, cursor: page.cursor };
}

/** How many questions exist (a counter, not a scan). */
export async function countQuestions(kv: Deno.Kv): Promise<number> {
  return counterValue((await kv.get(keys.counter("questions"))).value);
}

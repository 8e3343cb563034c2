/**
 * Similar questions: what `/ask` shows under the title being typed, what
 * `GET /api/questions/similar` answers and what the MCP `similar_questions` tool returns —
 * existing questions an asker (or an agent) should read before posting a duplicate.
 *
 * The title is searched like any query (lib/search/search.ts: stems, typos, the last word
 * as a prefix while it is typed), so a question sharing most of its telling words ranks
 * first; when a model embeds, the best matches are reordered by meaning (lib/search/rerank.ts),
 * which finds the same question asked in other words.
 *
 * @module
 */
import { summarize } from "../community/questions/read.ts";
import type { Embedder } from "./embeddings.ts";
import { searchQuestions } from "./search.ts";

/** Most questions one answer holds. */
export const SIMILAR_LIMIT = 5;

/** One similar question: enough to decide whether to open it. */
export interface SimilarQuestion {
  id: string;
  title: string;
  /** Top-level answers. */
  answerCount: number;
  /** An answer is accepted. */
  accepted: boolean;
  /** The question's vote score: up-votes minus down-votes. */
  score: number;
}

/** Options of {@link similarQuestions}. */
export interface SimilarOptions {
  /** At most this many (default and maximum {@link SIMILAR_LIMIT}). */
  limit?: number;
  /** Reorders the best matches by meaning when a model embeds. */
  embedder?: Embedder | null;
}

/**
 * Up to 5 public questions similar to `title`, the most relevant first.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const similar = await similarQuestions(kv, "How do I water ferns?", { limit: 5 });
 * similar[0]?.accepted; // true when that question has an accepted answer
 * ```
 */
export async function similarQuestions(
  kv: Deno.Kv,
  title: string,
  opts: SimilarOptions = {},
): Promise<SimilarQuestion[]> {
  const limit = Math.max(0, Math.min(opts.limit ?? SIMILAR_LIMIT, SIMILAR_LIMIT));
  if (limit === 0 || title.trim() === "") return [];
  const { embedder } = opts;
  // Only visible questions come back (searchQuestions reads records through getQuestions,
  // which drops deleted and hidden ones whoever asks).
  const found = await searchQuestions(kv, title, {
    want: limit,
    embedder,
  });
  const summaries = await summarize(kv, found.questions.slice(0, limit));
  return summaries.map((q) => ({
    id: q.id,
    title: q.title,
    answerCount: q.answerCount,
    accepted: q.acceptedMessageId !== null,
    score: q.upvotes - q.downvotes,
  }));
}

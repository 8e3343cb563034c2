/**
 * Similar questions: what `/ask` shows under the title being typed, what
 * `GET /api/questions/similar` answers and what the MCP `similar_questions` tool returns —
 * existing questions an asker (or an agent) should read before posting a duplicate.
 *
 * The body is a stop-gap over today's word search (`findQuestions`, where every word of
 * `q` must match a word, or the start of a title word). The title's telling words (a
 * short list of English function words left out, at most 5, longest first) make one
 * search with all of them — the questions sharing every one, whatever their age — and one
 * per word (its newest {@link PER_WORD} questions); the candidates are ranked by how many
 * of those words they share, newest first on a tie. The ranked engine of lib/search/
 * (library stemming and stop words, typos, BM25) replaces this body; the signature stays.
 *
 * @module
 */
import { findQuestions } from "../community/questions/feed.ts";
import { questionTerms, words } from "../community/search_terms.ts";

/** Most questions one answer holds. */
export const SIMILAR_LIMIT = 5;
/** Candidates read per word of the title (its newest matches). */
const PER_WORD = 20;
/** Words that say nothing about a question's subject (the stop-gap's own short list). */
const FUNCTION_WORDS = new Set(
  ("an and any are as at be but by can could do does for from get has have how if in " +
    "into is it its me my no not of on or should so than that the their then there this " +
    "to was we what when where which who why will with would you your").split(" "),
);

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
  /**
   * Who asks (null: anonymous). Unused by this body — suggestions never include a
   * deleted or hidden question, not even the viewer's own — and kept for the ranked
   * engine.
   */
  viewerId?: string | null;
}

/**
 * Up to 5 public questions similar to `title`, those sharing the most words first.
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
  const all = [...new Set(words(title))];
  const telling = all.filter((w) => !FUNCTION_WORDS.has(w));
  const terms = (telling.length > 0 ? telling : all).sort((a, b) => b.length - a.length)
    .slice(0, 5);
  if (limit === 0 || terms.length === 0) return [];
  const search = (q: string, n: number) =>
    findQuestions(kv, { sort: "new", q, page: 1, limit: n }, Date.now());
  // The feed's search reads records through getQuestions, which drops deleted and hidden
  // questions (lib/community/visibility.ts isPublic) whoever asks.
  const pages = await Promise.all([
    search(terms.join(" "), limit),
    ...(terms.length > 1 ? terms.map((t) => search(t, PER_WORD)) : []),
  ]);
  const candidates = new Map(pages.flatMap((p) => p.questions).map((q) => [q.id, q]));
  return [...candidates.values()]
    .map((q) => {
      const own = new Set(questionTerms(q));
      return { q, shared: terms.filter((t) => own.has(t)).length };
    })
    .sort((a, b) => b.shared - a.shared || b.q.createdAt - a.q.createdAt)
    .slice(0, limit)
    .map(({ q }) => ({
      id: q.id,
      title: q.title,
      answerCount: q.answerCount,
      accepted: q.acceptedMessageId !== null,
      score: q.upvotes - q.downvotes,
    }));
}

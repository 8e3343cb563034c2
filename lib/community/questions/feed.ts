/**
 * Questions, the feeds: newest by dense creation sequence (page p is a direct key range,
 * however deep), per tag, hot, and search over title, description and tags.
 *
 * @module
 */
import { counterValue, listNewestFirst } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import { EVENTUAL } from "../../kv/consistency.ts";
import type { ParsedQuery } from "../../search/query.ts";
import type { SearchOptions } from "../../search/search.ts";
import type { Embedder } from "../../search/embeddings.ts";
import { type QuestionRecord, type QuestionSummary, seqRowId, tagKey } from "./model.ts";
import { getQuestions, summarize, summarizeIds } from "./read.ts";
import { ALL_FEED, livePage, tagFeed } from "./holes.ts";
import { importOnUse } from "../../import_on_use.ts";

/** Search modules, imported by the first query with text (lib/import_on_use.ts says how). */
const search = <T>(path: string) => importOnUse<T>(new URL(path, import.meta.url));

/** How many of the newest questions the hot feed ranks. */
export const HOT_WINDOW = 200;
/** How many matches of a search newest-first, hot or unanswered ordering looks at, at most. */
export const SEARCH_REORDER_LIMIT = 200;

/**
 * The question ids of page `page` of a dense sequence, newest first, skipping removed rows
 * (./holes.ts): the live rows at ranks `((page−1)·limit, page·limit]`. A row's value is
 * the id (a newest-feed row of an older store: a copy of the question, whose id is taken;
 * ./model.ts `seqRowId`). Deleted and hidden questions are left out by the record reads
 * that follow (`summarizeIds`, `getQuestions`).
 */
async function seqIds(
  kv: Deno.Kv,
  feed: string,
  head: number,
  page: number,
  limit: number,
  keyOf: (seq: number) => Deno.KvKey,
): Promise<string[]> {
  const rows = await livePage<unknown>(kv, feed, head, page, limit, keyOf);
  return rows.flatMap((r) => {
    const id = seqRowId(r);
    return id ? [id] : [];
  });
}

/**
 * Page `page` (1-based) of all questions, newest first, read as one key range of the
 * creation sequence — no entries are skipped, so page 500 costs what page 1 costs.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { questions, total } = await listQuestionsPage(kv, { page: 1, limit: 20 });
 * ```
 */
export async function listQuestionsPage(
  kv: Deno.Kv,
  { page, limit, downvotes = true }: { page: number; limit: number; downvotes?: boolean },
): Promise<{ questions: QuestionSummary[]; total: number }> {
  const [head, total] = await kv.getMany<[number, Deno.KvU64]>([
    keys.questionSeqHead(),
    keys.counter("questions"),
  ], EVENTUAL);
  const ids = await seqIds(kv, ALL_FEED, head.value ?? 0, page, limit, keys.questionBySeq);
  const questions = await summarizeIds(kv, ids, { downvotes });
  return { questions, total: counterValue(total.value) };
}

/**
 * One page of questions, newest first, by the time index with a cursor (kept for callers
 * that walk the whole feed, e.g. "the 50 most recent questions").
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { questions, cursor } = await listQuestionsNewestFirst(kv, { limit: 20 });
 * ```
 */
export async function listQuestionsNewestFirst(
  kv: Deno.Kv,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<{ questions: QuestionRecord[]; cursor?: string }> {
  const page = await listNewestFirst<string>(kv, keys.questionsByTimePrefix(), { limit, cursor });
  return { questions: await getQuestions(kv, page.values), cursor: page.cursor };
}

/** Query of the people feed. */
export interface FeedQuery {
  /**
   * Absent: relevance when `q` searches, newest first otherwise (`relevance` says so
   * explicitly). With `q`, `new` and `hot` order the best {@link SEARCH_REORDER_LIMIT}
   * matches.
   */
  sort?: "new" | "hot" | "relevance";
  q?: string;
  tag?: string;
  /**
   * `unanswered`: only questions with no top-level answer and no accepted answer (the one
   * definition; see {@link isUnanswered}).
   */
  filter?: "unanswered";
  page: number;
  limit: number;
}

/** A page of the people feed. `total` is null when only a bounded scan was made. */
export interface FeedPage {
  questions: QuestionSummary[];
  total: number | null;
  page: number;
  limit: number;
  hasMore: boolean;
}

/** How many questions of a feed `filter=unanswered` looks at, at most. */
export const FILTER_SCAN_LIMIT = 2000;

/**
 * "Unanswered" (the feed filter): no top-level answer and no accepted answer. Replies
 * do not count — an answer is a top-level message (`answerCount`).
 */
export function isUnanswered(s: QuestionSummary): boolean {
  return s.answerCount === 0 && s.acceptedMessageId === null;
}

/**
 * Hot score: heat (up-votes + messages, as docs/interface.md#feed's participation heat) decayed by
 * age, so a busy new question beats an old one; questions without heat rank by recency.
 */
export function hotScore(s: QuestionSummary, now: number): number {
  const hours = Math.max(0, now - s.createdAt) / 3_600_000;
  return (s.upvotes - s.downvotes + s.messageCount + 1) / Math.pow(hours + 2, 1.5);
}

/** What a blank query parses to (no words, phrases, tag or filter). */
const BLANK_QUERY: ParsedQuery = { words: [], phrases: [], unanswered: false };

/**
 * `q` parsed. The parser and the analysis under it (stemmer, stop words, segmenter) are
 * imported by the first query with text: the plain feed, a new instance's first page,
 * loads none of them.
 */
async function parsedQuery(q: string): Promise<ParsedQuery> {
  if (!q.trim()) return BLANK_QUERY;
  return (await search<typeof import("../../search/query.ts")>("../../search/query.ts"))
    .parseQuery(q);
}

/**
 * The people feed: newest or hot, optionally filtered by a search query and a tag.
 * Newest without a query is a direct range of the (global or per-tag) sequence; hot
 * ranks the newest {@link HOT_WINDOW} candidates; a search ranks by relevance
 * (lib/search/search.ts). `tag:` and `is:unanswered` in `q` work like `tag` and
 * `filter=unanswered`.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const page = await findQuestions(kv, { sort: "hot", tag: "deno", page: 1, limit: 20 }, Date.now());
 * ```
 */
export async function findQuestions(
  kv: Deno.Kv,
  query: FeedQuery,
  now: number,
  { embedder }: { embedder?: Embedder | null } = {},
): Promise<FeedPage> {
  const { page, limit } = query;
  const parsed = await parsedQuery(query.q ?? "");
  const unanswered = query.filter === "unanswered" || parsed.unanswered;
  if (parsed.words.length > 0 || parsed.phrases.length > 0) {
    return await searchFeed(kv, query, unanswered, now, embedder);
  }
  const sort = query.sort === "hot" ? "hot" : "new";
  const tagName = query.tag || parsed.tag;
  const tag = tagName ? tagKey(tagName) : undefined;
  const answer = (questions: QuestionSummary[], total: number | null, hasMore: boolean) => ({
    questions,
    total,
    page,
    limit,
    hasMore,
  });

  if (sort === "new" && !unanswered) {
    if (!tag) {
      const { questions, total } = await listQuestionsPage(kv, { page, limit });
      return answer(questions, total, page * limit < total);
    }
    const [head, holes] = await kv.getMany<[number, Deno.KvU64]>([
      keys.tagSeqHead(tag),
      keys.seqHoleCount(tagFeed(tag)),
    ], EVENTUAL);
    const total = Math.max(0, (head.value ?? 0) - counterValue(holes.value));
    const ids = await seqIds(
      kv,
      tagFeed(tag),
      head.value ?? 0,
      page,
      limit,
      (s) => keys.questionByTag(tag, s),
    );
    const questions = await summarizeIds(kv, ids);
    return answer(questions, total, page * limit < total);
  }
  if (sort === "new") {
    // filter=unanswered, newest first: walk the feed, keep the unanswered, until the page
    // is full (plus one, for hasMore) or the scan bound.
    const want = page * limit + 1;
    const head = (await kv.get<number>(tag ? keys.tagSeqHead(tag) : keys.questionSeqHead()))
      .value ?? 0;
    const feed = tag ? tagFeed(tag) : ALL_FEED;
    const matches: QuestionSummary[] = [];
    const chunk = 100;
    let exhausted = false;
    for (let p = 1;; p++) {
      const ids = await seqIds(
        kv,
        feed,
        head,
        p,
        chunk,
        tag ? (s) => keys.questionByTag(tag, s) : keys.questionBySeq,
      );
      matches.push(...(await summarizeIds(kv, ids)).filter(isUnanswered));
      if (ids.length < chunk) {
        exhausted = true;
        break;
      }
      if (matches.length >= want || p * chunk >= FILTER_SCAN_LIMIT) break;
    }
    const slice = matches.slice((page - 1) * limit, page * limit);
    return answer(slice, exhausted ? matches.length : null, matches.length > page * limit);
  }

  const headKey = tag ? keys.tagSeqHead(tag) : keys.questionSeqHead();
  const head = (await kv.get<number>(headKey, EVENTUAL)).value ?? 0;
  const candidates = await summarizeIds(
    kv,
    await seqIds(
      kv,
      tag ? tagFeed(tag) : ALL_FEED,
      head,
      1,
      HOT_WINDOW,
      tag ? (s) => keys.questionByTag(tag, s) : keys.questionBySeq,
    ),
  );
  // Hot, with the filter: filter the (bounded) candidates.
  const summaries = unanswered ? candidates.filter(isUnanswered) : candidates;
  const total = summaries.length;

  const ranked = summaries
    .map((s) => ({ s, score: hotScore(s, now) }))
    .sort((a, b) => b.score - a.score || b.s.createdAt - a.s.createdAt)
    .map((r) => r.s);
  const slice = ranked.slice((page - 1) * limit, page * limit);
  return answer(slice, total, page * limit < ranked.length);
}

/**
 * A search page: by relevance, or the best matches reordered newest first or hot; the
 * `unanswered` filter applies to the matches.
 */
async function searchFeed(
  kv: Deno.Kv,
  query: FeedQuery,
  unanswered: boolean,
  now: number,
  embedder: SearchOptions["embedder"],
): Promise<FeedPage> {
  const { page, limit } = query;
  const reorder = query.sort === "new" || query.sort === "hot";
  const want = reorder || unanswered ? SEARCH_REORDER_LIMIT : page * limit + 1;
  const { searchQuestions } = await search<typeof import("../../search/search.ts")>(
    "../../search/search.ts",
  );
  const found = await searchQuestions(kv, query.q ?? "", {
    want,
    tag: query.tag || undefined,
    embedder,
  });
  let summaries: QuestionSummary[] | null = null;
  if (unanswered) summaries = (await summarize(kv, found.questions)).filter(isUnanswered);
  if (reorder) {
    const all = summaries ?? await summarize(kv, found.questions);
    summaries = query.sort === "hot"
      ? all.map((s) => ({ s, score: hotScore(s, now) }))
        .sort((a, b) => b.score - a.score || b.s.createdAt - a.s.createdAt).map((r) => r.s)
      : all.sort((a, b) => b.createdAt - a.createdAt);
  }
  const count = (summaries ?? found.questions).length;
  const from = (page - 1) * limit;
  return {
    questions: summaries
      ? summaries.slice(from, from + limit)
      : await summarize(kv, found.questions.slice(from, from + limit)),
    total: found.complete ? count : null,
    page,
    limit,
    hasMore: count > page * limit,
  };
}

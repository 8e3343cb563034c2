/**
 * Questions, the feeds: newest by dense creation sequence (page p is a direct key range,
 * however deep), per tag, hot, and search over title, description and tags.
 *
 * @module
 */
import { counterValue, getAll, listNewestFirst } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import { EVENTUAL } from "../../kv/consistency.ts";
import { queryTerms, questionTerms } from "../search_terms.ts";
import {
  type QuestionRecord,
  type QuestionSnapshot,
  type QuestionSummary,
  tagKey,
} from "./model.ts";
import { getQuestions, summarize } from "./read.ts";
import { ALL_FEED, livePage, tagFeed } from "./holes.ts";

/** How many of the newest questions the hot feed ranks. */
export const HOT_WINDOW = 200;
/** How many postings one search looks at, at most. */
export const SEARCH_SCAN_LIMIT = 1000;

/**
 * Page `page` of a dense sequence, newest first, skipping removed rows (./holes.ts): the
 * live rows at ranks `((page−1)·limit, page·limit]`. Snapshot rows of questions hidden by
 * moderation (`["hidden_posts", …]`) are left out (id rows are filtered by `getQuestions`).
 */
async function seqPage<T>(
  kv: Deno.Kv,
  feed: string,
  head: number,
  page: number,
  limit: number,
  keyOf: (seq: number) => Deno.KvKey,
): Promise<T[]> {
  const rows = await livePage<T>(kv, feed, head, page, limit, keyOf);
  const ids = rows.map((r) =>
    typeof r === "object" && r !== null ? (r as unknown as { id: string }).id : ""
  );
  if (ids.every((id) => id === "")) return rows;
  const hidden = await getAll(kv, ids.map((id) => keys.hiddenPost("question", id || "-")));
  return rows.filter((_, i) => hidden[i].value === null);
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
  const snapshots = await seqPage<QuestionSnapshot>(
    kv,
    ALL_FEED,
    head.value ?? 0,
    page,
    limit,
    keys.questionBySeq,
  );
  const questions = await summarize(kv, snapshots, { downvotes });
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
  sort: "new" | "hot";
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

/** Search candidates: newest-first ids of the postings of the query's longest term. */
async function* postings(kv: Deno.Kv, term: string): AsyncGenerator<string> {
  let n = 0;
  for await (const e of kv.list<string>({ prefix: keys.questionTermPrefix(term) })) {
    yield e.value;
    if (++n >= SEARCH_SCAN_LIMIT) return;
  }
}

/** Filtered candidates, newest first, until `want` matches or the scan bound. */
async function searchMatches(
  kv: Deno.Kv,
  terms: string[],
  tag: string | undefined,
  want: number,
): Promise<{ matches: QuestionRecord[]; exhausted: boolean }> {
  const matches: QuestionRecord[] = [];
  let batch: string[] = [];
  const flush = async () => {
    for (const q of await getQuestions(kv, batch)) {
      const set = new Set(questionTerms(q));
      if (!terms.every((t) => set.has(t))) continue;
      if (tag && !q.tags.some((t) => tagKey(t) === tag)) continue;
      matches.push(q);
    }
    batch = [];
  };
  for await (const id of postings(kv, terms[0])) {
    batch.push(id);
    if (batch.length === 50) {
      await flush();
      if (matches.length >= want) return { matches, exhausted: false };
    }
  }
  await flush();
  return { matches, exhausted: true };
}

/**
 * The people feed: newest or hot, optionally filtered by a search query and a tag.
 * Newest without a query is a direct range of the (global or per-tag) sequence; hot
 * ranks the newest {@link HOT_WINDOW} candidates; a search scans the postings of its
 * rarest-looking term (at most {@link SEARCH_SCAN_LIMIT}).
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
): Promise<FeedPage> {
  const { page, limit, sort } = query;
  const tag = query.tag ? tagKey(query.tag) : undefined;
  const terms = queryTerms(query.q ?? "");
  const answer = (questions: QuestionSummary[], total: number | null, hasMore: boolean) => ({
    questions,
    total,
    page,
    limit,
    hasMore,
  });

  const unanswered = query.filter === "unanswered";
  if (terms.length === 0 && sort === "new" && !unanswered) {
    if (!tag) {
      const { questions, total } = await listQuestionsPage(kv, { page, limit });
      return answer(questions, total, page * limit < total);
    }
    const [head, holes] = await kv.getMany<[number, Deno.KvU64]>([
      keys.tagSeqHead(tag),
      keys.seqHoleCount(tagFeed(tag)),
    ], EVENTUAL);
    const total = Math.max(0, (head.value ?? 0) - counterValue(holes.value));
    const ids = await seqPage<string>(
      kv,
      tagFeed(tag),
      head.value ?? 0,
      page,
      limit,
      (s) => keys.questionByTag(tag, s),
    );
    const questions = await summarize(kv, await getQuestions(kv, ids));
    return answer(questions, total, page * limit < total);
  }
  if (terms.length === 0 && sort === "new") {
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
      const rows = tag
        ? await getQuestions(
          kv,
          await seqPage<string>(kv, feed, head, p, chunk, (s) => keys.questionByTag(tag, s)),
        )
        : await seqPage<QuestionSnapshot>(kv, feed, head, p, chunk, keys.questionBySeq);
      matches.push(...(await summarize(kv, rows)).filter(isUnanswered));
      if (rows.length < chunk) {
        exhausted = true;
        break;
      }
      if (matches.length >= want || p * chunk >= FILTER_SCAN_LIMIT) break;
    }
    const slice = matches.slice((page - 1) * limit, page * limit);
    return answer(slice, exhausted ? matches.length : null, matches.length > page * limit);
  }

  let candidates: QuestionSnapshot[];
  let total: number | null;
  let more = false;
  if (terms.length > 0) {
    const want = sort === "hot" ? HOT_WINDOW : page * limit + 1;
    const { matches, exhausted } = await searchMatches(kv, terms, tag, want);
    candidates = matches;
    total = exhausted ? matches.length : null;
    more = !exhausted;
  } else {
    const headKey = tag ? keys.tagSeqHead(tag) : keys.questionSeqHead();
    const head = (await kv.get<number>(headKey, EVENTUAL)).value ?? 0;
    candidates = tag
      ? await getQuestions(
        kv,
        await seqPage<string>(
          kv,
          tagFeed(tag),
          head,
          1,
          HOT_WINDOW,
          (s) => keys.questionByTag(tag, s),
        ),
      )
      : await seqPage<QuestionSnapshot>(kv, ALL_FEED, head, 1, HOT_WINDOW, keys.questionBySeq);
    total = candidates.length;
  }

  // Hot or search with the filter: filter the (bounded) candidates.
  let summaries: QuestionSummary[] | null = null;
  if (unanswered) {
    summaries = (await summarize(kv, candidates)).filter(isUnanswered);
    if (total !== null) total = summaries.length;
  }

  if (sort === "hot") {
    const ranked = (summaries ?? await summarize(kv, candidates))
      .map((s) => ({ s, score: hotScore(s, now) }))
      .sort((a, b) => b.score - a.score || b.s.createdAt - a.s.createdAt)
      .map((r) => r.s);
    const slice = ranked.slice((page - 1) * limit, page * limit);
    return answer(slice, total ?? ranked.length, page * limit < ranked.length);
  }
  const from = (page - 1) * limit;
  return answer(
    summaries
      ? summaries.slice(from, from + limit)
      : await summarize(kv, candidates.slice(from, from + limit)),
    total,
    page * limit < (summaries ?? candidates).length || more,
  );
}

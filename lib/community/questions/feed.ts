/**
 * Questions, the feeds: newest by dense creation sequence (page p is a direct key range,
 * however deep), per tag, hot, and search over title, description and tags.
 *
 * @module
 */
import { counterValue, listNewestFirst } from "../../kv/atomic.ts";
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

/** How many of the newest questions the hot feed ranks. */
export const HOT_WINDOW = 200;
/** How many postings one search looks at, at most. */
export const SEARCH_SCAN_LIMIT = 1000;

/** Values at positions `(head − page·limit, head − (page−1)·limit]` of a dense sequence. */
async function seqPage<T>(
  kv: Deno.Kv,
  head: number,
  page: number,
  limit: number,
  keyOf: (seq: number) => Deno.KvKey,
): Promise<T[]> {
  const hi = head - (page - 1) * limit;
  const lo = Math.max(1, hi - limit + 1);
  if (hi < 1) return [];
  const out: T[] = [];
  const range = { start: keyOf(lo), end: keyOf(hi + 1) };
  const opts = { reverse: true, batchSize: limit, ...EVENTUAL };
  for await (const e of kv.list<T>(range, opts)) out.push(e.value);
  return out;
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

/**
 * Hot score: heat (up-votes + messages, as SPEC.md's participation heat) decayed by
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

  if (terms.length === 0 && sort === "new") {
    if (!tag) {
      const { questions, total } = await listQuestionsPage(kv, { page, limit });
      return answer(questions, total, page * limit < total);
    }
    const head = (await kv.get<number>(keys.tagSeqHead(tag), EVENTUAL)).value ?? 0;
    const ids = await seqPage<string>(kv, head, page, limit, (s) => keys.questionByTag(tag, s));
    const questions = await summarize(kv, await getQuestions(kv, ids));
    return answer(questions, head, page * limit < head);
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
        await seqPage<string>(kv, head, 1, HOT_WINDOW, (s) => keys.questionByTag(tag, s)),
      )
      : await seqPage<QuestionSnapshot>(kv, head, 1, HOT_WINDOW, keys.questionBySeq);
    total = candidates.length;
  }

  if (sort === "hot") {
    const ranked = (await summarize(kv, candidates))
      .map((s) => ({ s, score: hotScore(s, now) }))
      .sort((a, b) => b.score - a.score || b.s.createdAt - a.s.createdAt)
      .map((r) => r.s);
    const slice = ranked.slice((page - 1) * limit, page * limit);
    return answer(slice, total ?? ranked.length, page * limit < ranked.length);
  }
  const slice = candidates.slice((page - 1) * limit, page * limit);
  return answer(
    await summarize(kv, slice),
    total,
    page * limit < candidates.length || more,
  );
}

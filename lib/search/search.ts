/**
 * Ranked search over the KV index (lib/search/index.ts). Each query word is expanded to
 * the dictionary words it may mean — itself, the words it starts (the last word, while
 * typing), and the words one typo away (two in long words) — and every expansion's
 * postings are read, best first, up to a bound. A question scores BM25 summed over the
 * query's words (each word counts once, by its best expansion; a typo or a completion
 * weighs less than the word itself; answers' text weighs less than the question's own), times
 * the share of the query's words it matched, squared, so questions that match every word
 * come first.
 *
 * @module
 */
import { counterValue, getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { getQuestions } from "../community/questions/read.ts";
import { type QuestionRecord, tagKey } from "../community/questions/model.ts";
import { deletions, stemOf, surfaceWords, typoBudget } from "./analyze.ts";
import { editDistance } from "../text/edit_distance.ts";
import {
  decodePosting,
  type DocKind,
  idf,
  postingPrefix,
  questionIdOfPosting,
  statKeys,
  termWeight,
} from "./index.ts";
import { type ParsedQuery, parseQuery, type QueryWord } from "./query.ts";
import type { Embedder } from "./embeddings.ts";
import { rerankBySimilarity } from "./rerank.ts";

/** Postings read per expansion, best first, from a question's own text. */
export const POSTINGS_PER_TERM = 400;
/** Postings read per expansion from answers' text. */
export const ANSWER_POSTINGS_PER_TERM = 150;
/** The weight of answers' text beside the question's own. */
export const ANSWER_TEXT_WEIGHT = 0.4;
/** How an expansion weighs against the word as typed. */
export const EXPANSION_WEIGHT = { exact: 1, prefix: 0.8, typo1: 0.6, typo2: 0.45 } as const;
/** Expansions kept per word (the most frequent). */
export const EXPANSIONS_PER_WORD = 6;
/** Dictionary words a prefix lists at most. */
const PREFIX_SCAN = 64;
/** Dictionary words a two-typo search compares at most. */
const FUZZY_SCAN = 400;

/** One expansion of a query word. */
interface Expansion {
  stem: string;
  word: number;
  weight: number;
}

/** A scored question id. */
export interface Ranked {
  id: string;
  score: number;
}

/** The index's answer to a query, before records are read. */
export interface RankedIds {
  ranked: Ranked[];
  /** True when every posting of every expansion was read (the ranking is complete). */
  exhaustive: boolean;
  /** Stems that matched (for highlighting). */
  stems: Set<string>;
}

async function prefixExpansions(kv: Deno.Kv, w: QueryWord, i: number): Promise<Expansion[]> {
  if ([...w.surface].length < 2) return [];
  const out: Expansion[] = [];
  const start = keys.searchWord(w.surface);
  const end = keys.searchWord(w.surface + "\uffff");
  for await (const e of kv.list<string>({ start, end }, { limit: PREFIX_SCAN })) {
    if (e.key[1] !== w.surface) {
      out.push({ stem: e.value, word: i, weight: EXPANSION_WEIGHT.prefix });
    }
  }
  return out;
}

async function typoExpansions(kv: Deno.Kv, w: QueryWord, i: number): Promise<Expansion[]> {
  const budget = typoBudget(w.surface);
  if (budget === 0) return [];
  const found = new Set<string>();
  const dels = deletions(w.surface);
  // The query missed a letter, swapped or changed one: a neighbour of a dictionary word.
  const lists = [w.surface, ...dels].map(async (d) => {
    for await (const e of kv.list({ prefix: keys.searchNeighbours(d) }, { limit: 16 })) {
      found.add(e.key[2] as string);
    }
  });
  // The query has an extra letter: one of its deletions is a dictionary word.
  const [exact, ...extra] = await getAll<string>(kv, [w.surface, ...dels].map(keys.searchWord));
  extra.forEach((e, j) => e.value !== null && found.add(dels[j]));
  await Promise.all(lists);
  if (budget === 2 && exact.value === null) {
    // An unknown long word: compare the dictionary words that share its first two letters
    // (typos rarely touch the first letters; the neighbour lookups above cover one there).
    const head = [...w.surface].slice(0, 2).join("");
    const range = { start: keys.searchWord(head), end: keys.searchWord(head + "\uffff") };
    for await (const e of kv.list({ ...range }, { limit: FUZZY_SCAN })) {
      found.add(e.key[1] as string);
    }
    const twice = new Set(dels.flatMap(deletions));
    const got = await getAll(kv, [...twice].map(keys.searchWord));
    [...twice].forEach((d, j) => got[j].value !== null && found.add(d));
  }
  const out: Expansion[] = [];
  for (const word of found) {
    if (word === w.surface) continue;
    const d = editDistance(w.surface, word, budget);
    if (d > budget) continue;
    out.push({
      stem: stemOf(word),
      word: i,
      weight: d === 1 ? EXPANSION_WEIGHT.typo1 : EXPANSION_WEIGHT.typo2,
    });
  }
  return out;
}

/** Scores of one question per query word: own text and answers' text. */
interface Accumulator {
  own: number[];
  answers: number[];
}

/**
 * Rank question ids for a parsed query from the index alone.
 *
 * @example
 * ```ts
 * import { parseQuery } from "@/lib/search/query.ts";
 * declare const kv: Deno.Kv;
 * const { ranked } = await rankQuestionIds(kv, parseQuery("atomic counters"));
 * ```
 */
export async function rankQuestionIds(kv: Deno.Kv, query: ParsedQuery): Promise<RankedIds> {
  const { words } = query;
  if (words.length === 0) return { ranked: [], exhaustive: true, stems: new Set() };
  const expansions = (await Promise.all(words.map(async (w, i) => {
    const [prefix, typos] = await Promise.all([
      w.prefix ? prefixExpansions(kv, w, i) : [],
      typoExpansions(kv, w, i),
    ]);
    return [{ stem: w.stem, word: i, weight: EXPANSION_WEIGHT.exact }, ...prefix, ...typos];
  }))).flat();

  // One weight per (word, stem): the best way the word reaches the stem.
  const best = new Map<string, Expansion>();
  for (const x of expansions) {
    const k = `${x.word}\u0000${x.stem}`;
    if ((best.get(k)?.weight ?? 0) < x.weight) best.set(k, x);
  }
  const stems = [...new Set([...best.values()].map((x) => x.stem))];
  const [dfs, stats] = await Promise.all([
    getAll(kv, stems.map(keys.searchDocFrequency)),
    getAll(kv, [...statKeys("question"), ...statKeys("answers")]),
  ]);
  const df = new Map(stems.map((s, i) => [s, counterValue(dfs[i].value)]));
  const [qDocs, qLen, aDocs, aLen] = stats.map((e) => counterValue(e.value));
  const docs = qDocs + aDocs;
  const avg = { question: qLen / Math.max(1, qDocs), answers: aLen / Math.max(1, aDocs) };

  // Per word: the word itself and its most frequent expansions that exist.
  const kept: Expansion[] = [];
  words.forEach((_, i) => {
    const mine = [...best.values()].filter((x) => x.word === i && df.get(x.stem)! > 0);
    mine.sort((a, b) => b.weight - a.weight || df.get(b.stem)! - df.get(a.stem)!);
    kept.push(...mine.slice(0, EXPANSIONS_PER_WORD));
  });

  const acc = new Map<string, Accumulator>();
  let exhaustive = true;
  const scan = async (x: Expansion, kind: DocKind, limit: number) => {
    const weight = x.weight * idf(df.get(x.stem)!, docs) *
      (kind === "answers" ? ANSWER_TEXT_WEIGHT : 1);
    let n = 0;
    for await (const e of kv.list<number>({ prefix: postingPrefix(kind, x.stem) }, { limit })) {
      n++;
      const id = questionIdOfPosting(e.key);
      const { tf, dl } = decodePosting(e.value);
      const s = weight * termWeight(tf, dl, avg[kind]);
      let a = acc.get(id);
      if (!a) {
        acc.set(id, a = { own: Array(words.length).fill(0), answers: Array(words.length).fill(0) });
      }
      const field = kind === "answers" ? a.answers : a.own;
      field[x.word] = Math.max(field[x.word], s);
    }
    if (n === limit) exhaustive = false;
  };
  await Promise.all(kept.flatMap((x) => [
    scan(x, "question", POSTINGS_PER_TERM),
    scan(x, "answers", ANSWER_POSTINGS_PER_TERM),
  ]));

  const ranked: Ranked[] = [];
  for (const [id, a] of acc) {
    let sum = 0;
    let matched = 0;
    for (let i = 0; i < words.length; i++) {
      const s = a.own[i] + a.answers[i];
      if (s > 0) matched++;
      sum += s;
    }
    ranked.push({ id, score: sum * (matched / words.length) ** 2 });
  }
  ranked.sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : -1));
  return { ranked, exhaustive, stems: new Set(kept.map((x) => x.stem)) };
}

/** True when `text`'s words contain `phrase`'s words in a row. */
function hasPhrase(text: string, phrase: string[]): boolean {
  return ` ${surfaceWords(text).join(" ")} `.includes(` ${phrase.join(" ")} `);
}

/** Options of {@link searchQuestions}. */
export interface SearchOptions {
  /** Stop once this many questions passed the filters. */
  want: number;
  /** Only questions with this tag (besides a `tag:` in the query). */
  tag?: string;
  /** When a model embeds: the best of the lexical ranking is reordered by meaning (./rerank.ts). */
  embedder?: Embedder | null;
}

/** Questions found, best first. */
export interface SearchResult {
  questions: QuestionRecord[];
  /** True when every candidate was looked at (a count of `questions` is the total). */
  complete: boolean;
  /** `is:unanswered` was asked for (the caller filters by answer counts). */
  unanswered: boolean;
  /** Stems to highlight in snippets. */
  stems: Set<string>;
}

/** Candidates read per batch of records. */
const RECORD_BATCH = 40;
/** How many of the best lexical candidates a rerank reorders. */
export const RERANK_DEPTH = 30;

/**
 * Search questions: rank by the index, then read the records in rank order (only visible
 * questions are returned) and apply the query's tag and phrase filters, until `want`
 * passed.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { questions } = await searchQuestions(kv, 'counter "atomic op" tag:deno', { want: 21 });
 * ```
 */
export async function searchQuestions(
  kv: Deno.Kv,
  text: string,
  opts: SearchOptions,
): Promise<SearchResult> {
  const query = parseQuery(text);
  const tags = [query.tag, opts.tag].filter((t): t is string => !!t).map(tagKey);
  let { ranked, exhaustive, stems } = await rankQuestionIds(kv, query);
  if (opts.embedder && ranked.length > 1) {
    const top = await rerankBySimilarity(kv, opts.embedder, text, ranked.slice(0, RERANK_DEPTH));
    ranked = [...top, ...ranked.slice(RERANK_DEPTH)];
  }
  const questions: QuestionRecord[] = [];
  let i = 0;
  for (; i < ranked.length && questions.length < opts.want; i += RECORD_BATCH) {
    const batch = await getQuestions(kv, ranked.slice(i, i + RECORD_BATCH).map((r) => r.id));
    for (const q of batch) {
      if (tags.some((t) => !q.tags.some((x) => tagKey(x) === t))) continue;
      const text = `${q.title}\n${q.description}`;
      if (query.phrases.some((p) => !hasPhrase(text, p))) continue;
      questions.push(q);
    }
  }
  return {
    questions,
    complete: exhaustive && i >= ranked.length,
    unanswered: query.unanswered,
    stems,
  };
}

/**
 * The search index in KV: postings, term statistics and the term dictionary, written by
 * mutations added to the post's own atomic op (a question's create and edit) or by
 * {@link reindexQuestion} right after a change to its thread (lib/search/reindex.ts).
 *
 * Each question is two documents: its own text (title ×3, tags ×2, description ×1) and the
 * text of its answers. A document keeps every title and tag stem and, of its longer text,
 * the stems that weigh most (term frequency × inverse document frequency, read from the
 * dictionary before the op), at most {@link BODY_TERMS} / {@link ANSWER_TERMS}: rare words
 * such as error codes survive, filler does not, and an index entry costs ~60 bytes, so a
 * question stays near 2 KB of index however long it is.
 *
 * A posting's key carries its impact (the term's BM25 weight in the document, quantized to
 * one character) before the question id, so listing a stem's postings reads the documents
 * where it matters most first and a bounded scan of a common word keeps the best ones.
 *
 * @module
 */
import { addToCounter, counterValue, getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { analyze, deletions } from "./analyze.ts";

/** BM25's term-frequency saturation. */
export const BM25_K1 = 1.2;
/** BM25's length normalization. */
export const BM25_B = 0.75;
/** Field weights: a title word counts three times, a tag twice. */
export const TITLE_WEIGHT = 3;
export const TAG_WEIGHT = 2;
/** Description stems kept per question (besides every title and tag stem). */
export const BODY_TERMS = 20;
/** Stems kept for the text of a question's answers. */
export const ANSWER_TERMS = 24;
/** Only this much of a description or of one answer is read. */
export const DESCRIPTION_CHARS = 4000;
export const ANSWER_CHARS = 2000;
/** Only the first answers of a thread are read. */
export const ANSWERS_READ = 40;
/** Term frequencies are capped (one byte in the posting). */
const MAX_TF = 255;
/** Impact levels: printable ASCII from `!`, the highest impact first. */
const IMPACT_LEVELS = 90;
/** The average lengths assumed by the impact order (ranking uses the measured ones). */
const TYPICAL_LENGTH = { question: 40, answers: 120 } as const;

/** The two documents of a question. */
export type DocKind = "question" | "answers";

const POSTINGS = { question: "sp", answers: "sa" } as const;
const DOCS = { question: "sq", answers: "sr" } as const;
const STATS = {
  question: { docs: "qdocs", len: "qlen" },
  answers: { docs: "adocs", len: "alen" },
} as const;

/** What a document's postings are: stems, their weighted frequencies, its length. */
export interface StoredDoc {
  s: string[];
  w: number[];
  dl: number;
}

/** Indexing a document, computed before its op: the document and the words new to the dictionary. */
export interface IndexPlan {
  kind: DocKind;
  questionId: string;
  doc: StoredDoc;
  /** `[word, stem]` pairs not in the dictionary when the plan was made. */
  newWords: [string, string][];
}

/**
 * BM25's term-frequency part: how much a term with weighted frequency `tf` says about a
 * document of length `dl`, saturating at `k1 + 1`.
 *
 * @example
 * ```ts
 * termWeight(3, 40, 40) > termWeight(1, 40, 40); // true
 * ```
 */
export function termWeight(tf: number, dl: number, avgdl: number): number {
  const norm = 1 - BM25_B + BM25_B * (dl / Math.max(1, avgdl));
  return (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * norm);
}

/**
 * Inverse document frequency, BM25's variant (never negative).
 *
 * @example
 * ```ts
 * idf(1, 1000) > idf(500, 1000); // true
 * ```
 */
export function idf(df: number, docs: number): number {
  return Math.log(1 + (Math.max(docs, df) - df + 0.5) / (df + 0.5));
}

/** The one-character impact prefix: a higher term weight sorts earlier. */
function impactPrefix(kind: DocKind, tf: number, dl: number): string {
  const x = termWeight(tf, dl, TYPICAL_LENGTH[kind]) / (BM25_K1 + 1);
  const level = Math.min(IMPACT_LEVELS - 1, Math.max(0, Math.floor(x * IMPACT_LEVELS)));
  return String.fromCharCode(0x21 + (IMPACT_LEVELS - 1 - level));
}

/**
 * The key of one posting.
 *
 * @example
 * ```ts
 * postingKey("question", "counter", 3, 40, "q-1"); // ["sp", "counter", "<impact>q-1"]
 * ```
 */
export function postingKey(
  kind: DocKind,
  stem: string,
  tf: number,
  dl: number,
  questionId: string,
): Deno.KvKey {
  return keys.searchPosting(POSTINGS[kind], stem, impactPrefix(kind, tf, dl) + questionId);
}

/** The question id of a posting key. */
export function questionIdOfPosting(key: Deno.KvKey): string {
  return (key[2] as string).slice(1);
}

/** A posting's value: the document length and the term's weighted frequency, in one number. */
export function postingValue(tf: number, dl: number): number {
  return dl * 256 + Math.min(MAX_TF, tf);
}

/** The inverse of {@link postingValue}. */
export function decodePosting(value: number): { tf: number; dl: number } {
  return { tf: value % 256, dl: Math.floor(value / 256) };
}

/** The postings key prefix of a stem in a document kind. */
export function postingPrefix(kind: DocKind, stem: string): Deno.KvKey {
  return keys.searchPostingPrefix(POSTINGS[kind], stem);
}

/** The key of a question's stored document of one kind. */
export function docKey(kind: DocKind, questionId: string): Deno.KvKey {
  return keys.searchDoc(DOCS[kind], questionId);
}

/** The statistics keys of a kind: document count and summed length. */
export function statKeys(kind: DocKind): [Deno.KvKey, Deno.KvKey] {
  return [keys.searchStat(STATS[kind].docs), keys.searchStat(STATS[kind].len)];
}

/** Weighted term frequencies of some text, with the words each stem was written as. */
interface Bag {
  tf: Map<string, number>;
  words: Map<string, Set<string>>;
  dl: number;
}

function newBag(): Bag {
  return { tf: new Map(), words: new Map(), dl: 0 };
}

function addText(bag: Bag, text: string, weight: number): Bag {
  for (const { surface, stem } of analyze(text)) {
    bag.tf.set(stem, (bag.tf.get(stem) ?? 0) + weight);
    let words = bag.words.get(stem);
    if (!words) bag.words.set(stem, words = new Set());
    if (words.size < 4) words.add(surface);
    bag.dl += weight;
  }
  return bag;
}

/**
 * Choose a document's stems: all of `always`, and the `cap` stems of `ranked` that weigh
 * most (tf × idf by the dictionary as it is now), then note the words new to the dictionary.
 */
async function plan(
  kv: Deno.Kv,
  kind: DocKind,
  questionId: string,
  always: Bag,
  ranked: Bag,
  cap: number,
): Promise<IndexPlan> {
  let chosen = [...ranked.tf.keys()].filter((s) => !always.tf.has(s));
  if (chosen.length > cap) {
    const [dfs, stats] = await Promise.all([
      getAll(kv, chosen.map(keys.searchDocFrequency)),
      getAll(kv, [...statKeys("question"), ...statKeys("answers")]),
    ]);
    const docs = counterValue(stats[0].value) + counterValue(stats[2].value);
    const weight = new Map(
      chosen.map((s, i) => [s, ranked.tf.get(s)! * idf(counterValue(dfs[i].value), docs)]),
    );
    chosen = chosen.sort((a, b) => weight.get(b)! - weight.get(a)! || (a < b ? -1 : 1))
      .slice(0, cap);
  }
  const tf = new Map(always.tf);
  for (const s of ranked.tf.keys()) {
    if (tf.has(s)) tf.set(s, tf.get(s)! + ranked.tf.get(s)!);
  }
  for (const s of chosen) tf.set(s, ranked.tf.get(s)!);
  const words: [string, string][] = [];
  for (const stem of tf.keys()) {
    for (const w of always.words.get(stem) ?? []) words.push([w, stem]);
    for (const w of ranked.words.get(stem) ?? []) words.push([w, stem]);
  }
  const unique = [...new Map(words).entries()];
  const known = await getAll(kv, unique.map(([w]) => keys.searchWord(w)));
  return {
    kind,
    questionId,
    doc: {
      s: [...tf.keys()],
      w: [...tf.values()].map((v) => Math.min(MAX_TF, Math.round(v))),
      dl: Math.round(always.dl + ranked.dl),
    },
    newWords: unique.filter((_, i) => known[i].value === null),
  };
}

/**
 * Plan the index of a question's own text (title ×3, tags ×2, description).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const p = await planQuestion(kv, { id: "q-1", title: "Atomic counters", description: "", tags: ["deno"] });
 * p.doc.s; // ["atom", "counter", "deno"]
 * ```
 */
export function planQuestion(
  kv: Deno.Kv,
  q: { id: string; title: string; description: string; tags: string[] },
): Promise<IndexPlan> {
  const always = addText(newBag(), q.title, TITLE_WEIGHT);
  addText(always, q.tags.join(" "), TAG_WEIGHT);
  const body = addText(newBag(), q.description.slice(0, DESCRIPTION_CHARS), 1);
  return plan(kv, "question", q.id, always, body, BODY_TERMS);
}

/**
 * Plan the index of the text of a question's answers (null when there is none).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const p = await planAnswers(kv, "q-1", ["Use a sum mutation."]);
 * ```
 */
export async function planAnswers(
  kv: Deno.Kv,
  questionId: string,
  texts: string[],
): Promise<IndexPlan | null> {
  const bag = newBag();
  for (const t of texts.slice(0, ANSWERS_READ)) addText(bag, t.slice(0, ANSWER_CHARS), 1);
  if (bag.tf.size === 0) return null;
  return await plan(kv, "answers", questionId, newBag(), bag, ANSWER_TERMS);
}

function weights(doc: StoredDoc | null): Map<string, number> {
  return new Map(doc ? doc.s.map((s, i) => [s, doc.w[i]]) : []);
}

/**
 * Add a plan's writes to `op`, given the document as stored now (`old`, null when new):
 * only postings whose impact or value changed are written, document frequencies and
 * statistics move by `sum`, and new words enter the dictionary with their neighbours.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const p: IndexPlan;
 * const op = kv.atomic();
 * indexOps(op, p, null);
 * ```
 */
export function indexOps(op: Deno.AtomicOperation, p: IndexPlan, old: StoredDoc | null): void {
  const before = weights(old);
  const after = weights(p.doc);
  const id = p.questionId;
  for (const [stem, tf] of before) {
    const now = after.get(stem);
    if (now === tf && old!.dl === p.doc.dl) continue;
    op.delete(postingKey(p.kind, stem, tf, old!.dl, id));
    if (now === undefined) addToCounter(op, keys.searchDocFrequency(stem), -1);
  }
  for (const [stem, tf] of after) {
    if (before.get(stem) === tf && old?.dl === p.doc.dl) continue;
    op.set(postingKey(p.kind, stem, tf, p.doc.dl, id), postingValue(tf, p.doc.dl));
    // A moved posting touches its frequency too (a sum of 0): a consistency check walking
    // the postings while this commits sees the counter change and judges it later.
    addToCounter(op, keys.searchDocFrequency(stem), before.has(stem) ? 0 : 1);
  }
  op.set(docKey(p.kind, id), p.doc);
  const [docs, len] = statKeys(p.kind);
  if (!old) addToCounter(op, docs, 1);
  if (p.doc.dl !== (old?.dl ?? 0)) addToCounter(op, len, p.doc.dl - (old?.dl ?? 0));
  for (const [word, stem] of p.newWords) {
    op.set(keys.searchWord(word), stem);
    if ([...word].length >= 5) {
      for (const d of deletions(word)) op.set(keys.searchNeighbour(d, word), 1);
    }
  }
}

/**
 * The mutations {@link indexOps} adds at most (for batching under KV's 1000 per op).
 *
 * @example
 * ```ts
 * declare const p: IndexPlan;
 * indexMutations(p, null); // ≈ 2 per stem + 1 + ~6 per new word
 * ```
 */
export function indexMutations(p: IndexPlan, old: StoredDoc | null): number {
  const words = p.newWords.reduce((n, [w]) => n + 1 + ([...w].length >= 5 ? [...w].length : 0), 0);
  return 2 * ((old?.s.length ?? 0) + p.doc.s.length) + 3 + words;
}

/**
 * Remove a stored document and its postings in `op`.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const old: StoredDoc;
 * const op = kv.atomic();
 * unindexOps(op, "answers", "q-1", old);
 * ```
 */
export function unindexOps(
  op: Deno.AtomicOperation,
  kind: DocKind,
  questionId: string,
  old: StoredDoc,
): void {
  old.s.forEach((stem, i) => {
    op.delete(postingKey(kind, stem, old.w[i], old.dl, questionId));
    addToCounter(op, keys.searchDocFrequency(stem), -1);
  });
  op.delete(docKey(kind, questionId));
  const [docs, len] = statKeys(kind);
  addToCounter(op, docs, -1);
  addToCounter(op, len, -old.dl);
}

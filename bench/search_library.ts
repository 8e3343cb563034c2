/**
 * The in-process alternative of the search bench (bench/search.ts): a fresh process does
 * what a cold Deno Deploy instance would have to — read every question out of KV, build a
 * library index in memory — then answers the corpus queries.
 *
 * `deno run -A --v8-flags=--expose-gc bench/search_library.ts <minisearch|orama> <kvPath> <runs> <first query>`
 *
 * - MiniSearch: title, description and tags (boosts 3 and 2, as the KV index weighs them),
 *   stop words dropped (the same list), fuzzy 0.2, prefix on the last word.
 * - Orama: the same fields and boosts, typo tolerance 1 (its prefix matching is built in).
 *
 * Prints one JSON line: the time from process start to the first answer (module loading,
 * reading the store, building), the heap and RSS after building (garbage collected first,
 * so the raw questions read no longer count), and per query p50/p99 (ms) of the search
 * alone, page-1 results that match the query's intent and the engine's hit count.
 *
 * @module
 */
const [engine, kvPath, runsArg, firstQuery] = Deno.args;
const runs = Number(runsArg);

interface Doc {
  id: string;
  title: string;
  description: string;
  tags: string[];
}

/** A built index: search one query, ids best first and the number of hits. */
type Searcher = (q: string) => { ids: string[]; hits: number };

/** Read the stored questions the way an instance would: one pass over `["questions"]`. */
async function readQuestions(kv: Deno.Kv): Promise<Doc[]> {
  const docs: Doc[] = [];
  for await (const e of kv.list<Doc>({ prefix: ["questions"] }, { batchSize: 1000 })) {
    const { id, title, description, tags } = e.value;
    docs.push({ id, title, description, tags });
  }
  return docs;
}

async function miniSearch(docs: Doc[]): Promise<Searcher> {
  const { default: MiniSearch } = await import("minisearch");
  const { stopwords } = await import("@orama/stopwords/english");
  const stop = new Set(stopwords);
  const index = new MiniSearch<Doc>({
    fields: ["title", "description", "tags"],
    extractField: (d, f) => f === "tags" ? d.tags.join(" ") : String(d[f as keyof Doc]),
    processTerm: (t) => {
      const w = t.toLowerCase();
      return stop.has(w) ? null : w;
    },
    searchOptions: {
      boost: { title: 3, tags: 2 },
      fuzzy: 0.2,
      prefix: (_t, i, terms) => i === terms.length - 1,
    },
  });
  index.addAll(docs);
  return (q) => {
    const r = index.search(q);
    return { ids: r.slice(0, 20).map((x) => String(x.id)), hits: r.length };
  };
}

async function orama(docs: Doc[]): Promise<Searcher> {
  const { create, insertMultiple, search } = await import("@orama/orama");
  const db = create({
    schema: { qid: "string", title: "string", description: "string", tags: "string[]" } as const,
  });
  await insertMultiple(
    db,
    docs.map((d) => ({ qid: d.id, title: d.title, description: d.description, tags: d.tags })),
    1000,
  );
  return (q) => {
    // Tolerance 1 as the KV index's one typo; Orama 3 then misses exact matches of some words
    // (e.g. 0 hits for a word in most questions) — what its users would get, so measured as is.
    const r = search(db, {
      term: q,
      properties: ["title", "description", "tags"],
      tolerance: 1,
      boost: { title: 3, tags: 2 },
      limit: 20,
    });
    if (r instanceof Promise) throw new Error("orama answered asynchronously");
    return { ids: r.hits.map((h) => String(h.document.qid)), hits: r.count };
  };
}

const kv = await Deno.openKv(kvPath);
const reading = performance.now();
const docs = await readQuestions(kv);
const read = performance.now();
const searcher = await (engine === "orama" ? orama : miniSearch)(docs);
const built = performance.now();
searcher(firstQuery);
const firstAnswerMs = performance.now();
docs.length = 0;
// deno-lint-ignore no-explicit-any
const gc = (globalThis as any).gc as (() => void) | undefined;
gc?.();
const { rss, heapUsed } = Deno.memoryUsage();

// Loaded after the first answer, so a cold start counts only what an instance would load.
const { CORPUS_QUERIES, relevantCount } = await import("./search_corpus.ts");
const { quantile, timed } = await import("./search_timing.ts");
const queries = [];
for (const [k, { q }] of CORPUS_QUERIES.entries()) {
  const times = await timed(runs, () => searcher(q));
  const { ids, hits } = searcher(q);
  queries.push({
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    page: ids.length,
    relevant: relevantCount(k, ids),
    hits,
    complete: true,
    runs: times.length,
  });
}
kv.close();
console.log(JSON.stringify({
  firstAnswerMs,
  readMs: read - reading,
  buildMs: built - read,
  rss,
  heapUsed,
  gc: gc !== undefined,
  queries,
}));

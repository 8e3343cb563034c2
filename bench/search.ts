/**
 * ("Search"): the ranked KV search index beside an in-process library index and the previous
 * search, in the same run, over the same realistic corpus (bench/search_corpus.ts: Zipf
 * vocabulary, 5–12-word titles, 30–120-word descriptions, 1–3 of 200 tags, 50 rare words).
 *
 * For each size:
 * - **KV index (this tree)**: the corpus written through the bulk loader (bench/seed.ts, with
 *   `planQuestion`) into a KV file, then `findQuestions(kv, {q, page: 1, limit: 20}, now)` per
 *   query — a common word, a rare word, two words, a typo, a prefix — warm, p50/p99
 *   (bench/search_worker.ts, in a process of its own).
 * - **MiniSearch / Orama**: a fresh process reads every question out of that KV file and builds
 *   the library's index in memory, as a cold Deno Deploy instance would; build time, heap and
 *   RSS after building, and the same queries (bench/search_library.ts).
 * - **Previous search** (commit {@link SEARCH_BEFORE_COMMIT}, exact and title-prefix terms under
 *   `["question_terms", …]`): the same corpus seeded with that tree's writer in a temporary
 *   worktree of it (bench/before_tree.ts), the same queries through its `findQuestions`.
 * - **Index bytes per question**: each store is VACUUMed (`node:sqlite`), its index rows
 *   deleted and VACUUMed again; the file shrinks by the index's real cost (rows, the
 *   expiry index's entries, b-tree pages). Also the logical size: encoded key + value bytes
 *   of the index prefixes.
 * - **Cold start**: a new process loads the tree's feed module, opens the store and answers
 *   one query (median of 5; bench/search_cold.ts), beside the same process reading one key.
 * - **Quality at a glance**: per engine and query, how many of page 1's results match what the
 *   query means, the hits the engine reports, and how many questions a perfect engine would find.
 *
 * With 10k and 100k measured, 1M is extrapolated and labelled so ({@link printExtrapolation}).
 *
 * Environment: BENCH_SEARCH_FULL=1 (10k and 100k questions; default 10k only),
 * BENCH_SEARCH_1M=1 (also 1M, measured: seeding takes over an hour here),
 * BENCH_SEARCH_SIZES (comma-separated sizes instead, e.g. `2000`), BENCH_SEARCH_RUNS (timed
 * runs per query, default 200), BENCH_SEARCH_BEFORE (the previous search's commit, default
 * {@link SEARCH_BEFORE_COMMIT}; `none` skips it), BENCH_SEARCH_ORAMA=0 (skip Orama).
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { onInterrupt, withBeforeTree } from "./before_tree.ts";
import { CORPUS_QUERIES, expectedHits } from "./search_corpus.ts";
import type { QueryTiming } from "./search_timing.ts";

/** The last commit with the previous search (exact terms, title prefixes, newest first). */
export const SEARCH_BEFORE_COMMIT = "230240c";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const BENCH = `${ROOT}/bench`;
/** The index's key prefixes in this tree (lib/kv/keys.ts) and in the previous one. */
const KV_INDEX_PREFIXES = ["sp", "sa", "sq", "sr", "sd", "sw", "sv", "ss"];
const OLD_INDEX_PREFIXES = ["question_terms"];
/** Deno Deploy's memory per instance. */
const DEPLOY_MEMORY = 512 * 1024 * 1024;

/** One engine's side at one size. */
interface Side {
  engine: string;
  queries: QueryTiming[];
  seedSeconds?: number;
  bytes?: IndexBytes;
  cold?: Cold;
  /** In-process libraries: build and memory. */
  library?: Library;
  /** The same cold process reading one key instead of searching. */
  baseline?: Cold;
}

interface IndexBytes {
  /** VACUUMed file size with and without the index rows. */
  withIndex: number;
  without: number;
  /** Index rows and their encoded key + value bytes. */
  rows: number;
  logical: number;
  perPrefix: { prefix: string; rows: number; bytes: number }[];
}

interface Cold {
  firstAnswerMs: number;
  loadMs: number;
  answerMs: number;
  rss: number;
  heapUsed: number;
}

interface Library extends Cold {
  readMs: number;
  buildMs: number;
  gc: boolean;
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const ms = (n: number) => n < 10 ? n.toFixed(2) : n.toFixed(1);
const thousands = (n: number) => n.toLocaleString("en-US");

function table(rows: string[][]): void {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const [i, r] of rows.entries()) {
    console.log(r.map((cell, c) => cell.padEnd(widths[c])).join(" | "));
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  }
}

/** Run a bench script in its own process (with `config`'s import map); its last JSON line. */
async function inProcess<T>(script: string, args: string[], config?: string): Promise<T> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...(config ? ["--config", config] : []),
      "--v8-flags=--expose-gc",
      `${BENCH}/${script}`,
      ...args,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const forget = onInterrupt(() => child.kill("SIGKILL"));
  try {
    const out = await child.output();
    if (!out.success) throw new Error(`${script} ${args[0]} failed`);
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    return JSON.parse(lines.at(-1)!) as T;
  } finally {
    forget();
  }
}

/** Cold-start probes per measurement (the median is reported: this machine is shared). */
const COLD_RUNS = 5;

/**
 * Fresh processes' first search of `q` and, interleaved with them, the same process's first
 * read of one key (the baseline): the median of each, by time to the first answer.
 */
async function coldStart(
  root: string,
  kvPath: string,
  q: string,
): Promise<{ search: Cold; baseline: Cold }> {
  const search: Cold[] = [];
  const baseline: Cold[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    for (const [list, query] of [[search, q], [baseline, ""]] as const) {
      list.push(
        await inProcess<Cold>("search_cold.ts", [root, kvPath, query], `${root}/deno.json`),
      );
    }
  }
  const median = (xs: Cold[]) =>
    xs.sort((a, b) => a.firstAnswerMs - b.firstAnswerMs)[Math.floor(xs.length / 2)];
  return { search: median(search), baseline: median(baseline) };
}

/** The encoded key range of a first key part (Deno KV's tuple encoding of a string). */
function prefixRange(name: string): [Uint8Array, Uint8Array] {
  const bytes = new TextEncoder().encode(name);
  return [new Uint8Array([2, ...bytes, 0]), new Uint8Array([2, ...bytes, 1])];
}

/**
 * What the index costs on disk: the closed store VACUUMed, then without `prefixes`' rows
 * VACUUMed again (the store is changed: call this last).
 */
function indexBytes(kvPath: string, prefixes: string[]): IndexBytes {
  const db = new DatabaseSync(kvPath);
  try {
    const perPrefix = prefixes.map((prefix) => {
      const [lo, hi] = prefixRange(prefix);
      const r = db.prepare(
        "SELECT count(*) AS n, coalesce(sum(length(k) + length(v)), 0) AS b FROM kv WHERE k >= ? AND k < ?",
      ).get(lo, hi) as { n: number; b: number };
      return { prefix, rows: Number(r.n), bytes: Number(r.b) };
    });
    const size = () => {
      db.exec("VACUUM");
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      return Deno.statSync(kvPath).size;
    };
    const withIndex = size();
    for (const prefix of prefixes) {
      const [lo, hi] = prefixRange(prefix);
      db.prepare("DELETE FROM kv WHERE k >= ? AND k < ?").run(lo, hi);
    }
    const without = size();
    return {
      withIndex,
      without,
      rows: perPrefix.reduce((n, p) => n + p.rows, 0),
      logical: perPrefix.reduce((n, p) => n + p.bytes, 0),
      perPrefix,
    };
  } finally {
    db.close();
  }
}

/** Seed, measure and cost one tree's KV search over a store of `n` questions at `kvPath`. */
async function kvSide(
  engine: string,
  root: string,
  kvPath: string,
  n: number,
  runs: number,
): Promise<Side> {
  const config = `${root}/deno.json`;
  const seeded = await inProcess<{ seconds: number }>(
    "search_worker.ts",
    ["seed", root, kvPath, String(n)],
    config,
  );
  const queries = await inProcess<QueryTiming[]>(
    "search_worker.ts",
    ["measure", root, kvPath, String(runs)],
    config,
  );
  const { search, baseline } = await coldStart(root, kvPath, CORPUS_QUERIES[0].q);
  return { engine, queries, seedSeconds: seeded.seconds, cold: search, baseline };
}

async function librarySide(
  engine: "minisearch" | "orama",
  kvPath: string,
  runs: number,
): Promise<Side> {
  const r = await inProcess<Library & { queries: QueryTiming[] }>(
    "search_library.ts",
    [engine, kvPath, String(runs), CORPUS_QUERIES[0].q],
    `${ROOT}/deno.json`,
  );
  const { queries, ...library } = r;
  return {
    engine: engine === "orama" ? "Orama (in process)" : "MiniSearch (in process)",
    queries,
    library,
  };
}

/** Everything measured at one size. */
interface SizeResult {
  n: number;
  sides: Side[];
  expected: number[];
}

async function measureSize(
  n: number,
  runs: number,
  before: string | null,
  orama: boolean,
): Promise<SizeResult> {
  const dir = await Deno.makeTempDir({ prefix: "parley-search-" });
  const forgetDir = onInterrupt(() => Deno.removeSync(dir, { recursive: true }));
  try {
    const started = performance.now();
    const kvPath = `${dir}/index.kv`;
    const kv = await kvSide("KV index (this tree)", ROOT, kvPath, n, runs);
    const sides: Side[] = [kv];
    sides.push(await librarySide("minisearch", kvPath, runs));
    if (orama) sides.push(await librarySide("orama", kvPath, runs));
    kv.bytes = indexBytes(kvPath, KV_INDEX_PREFIXES);
    if (before) {
      const oldPath = `${dir}/previous.kv`;
      const old = await kvSide(
        `previous search (${SEARCH_BEFORE_COMMIT})`,
        before,
        oldPath,
        n,
        runs,
      );
      old.bytes = indexBytes(oldPath, OLD_INDEX_PREFIXES);
      sides.push(old);
    }
    console.log(
      `  ${thousands(n)} questions measured in ${
        ((performance.now() - started) / 1000).toFixed(0)
      } s`,
    );
    return { n, sides, expected: expectedHits(n) };
  } finally {
    forgetDir();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

function hitsCell(t: QueryTiming): string {
  return `${thousands(t.hits)}${t.complete ? "" : "+"}`;
}

function printLatency(r: SizeResult, runs: number): void {
  console.log(`\nSearch at ${thousands(r.n)} questions — findQuestions page 1 (20), warm, ms`);
  const rows = [["engine", "query", "q", "p50", "p99", "page 1 relevant", "hits", "expected"]];
  for (const s of r.sides) {
    for (const [k, t] of s.queries.entries()) {
      rows.push([
        s.engine,
        CORPUS_QUERIES[k].kind,
        CORPUS_QUERIES[k].q,
        ms(t.p50),
        ms(t.p99) + (t.runs < runs ? ` (${t.runs} runs)` : ""),
        `${t.relevant}/${t.page}`,
        hitsCell(t),
        thousands(r.expected[k]),
      ]);
    }
  }
  table(rows);
}

function printCosts(r: SizeResult): void {
  console.log(`\nIndex size, memory and cold start at ${thousands(r.n)} questions`);
  const rows = [[
    "engine",
    "index bytes/question (file Δ)",
    "logical k+v bytes/q",
    "index rows/q",
    "first answer (process clock)",
    "of which open+search",
    "RSS",
    "heap",
    "seed s",
  ]];
  const perQ = (b: number) => thousands(Math.round(b / r.n));
  for (const s of r.sides) {
    const c = s.cold ?? s.library!;
    rows.push([
      s.engine,
      s.bytes ? perQ(s.bytes.withIndex - s.bytes.without) : "— (in memory)",
      s.bytes ? perQ(s.bytes.logical) : "—",
      s.bytes ? (s.bytes.rows / r.n).toFixed(1) : "—",
      `${ms(c.firstAnswerMs)} ms`,
      s.library
        ? `read KV ${ms(s.library.readMs)} + build ${ms(s.library.buildMs)} ms`
        : `${ms(c.answerMs)} ms`,
      mb(c.rss),
      mb(c.heapUsed) + (s.library && !s.library.gc ? " (no gc)" : ""),
      s.seedSeconds ? s.seedSeconds.toFixed(0) : "—",
    ]);
  }
  for (const s of r.sides) {
    if (!s.baseline) continue;
    rows.push([
      `  baseline: ${s.engine.split(" (")[0]}'s process, one kv.get`,
      "—",
      "—",
      "—",
      `${ms(s.baseline.firstAnswerMs)} ms`,
      `${ms(s.baseline.answerMs)} ms`,
      mb(s.baseline.rss),
      mb(s.baseline.heapUsed),
      "—",
    ]);
  }
  table(rows);
  for (const s of r.sides) {
    if (!s.bytes) continue;
    const parts = s.bytes.perPrefix.map((p) =>
      `${p.prefix} ${(p.rows / r.n).toFixed(1)} rows ${thousands(Math.round(p.bytes / r.n))} B`
    );
    console.log(
      `  ${s.engine}: per question ${parts.join(", ")}; store ${mb(s.bytes.withIndex)} → ${
        mb(s.bytes.without)
      } without the index`,
    );
  }
}

/**
 * 1M from the two largest sizes. p50 follows the log-log line through them, never below the
 * larger size's (a p50 that fell with size is noise; a shared machine makes some); p99 keeps
 * the larger size's ratio to p50 (its own line would fit the noise of a few slow runs).
 * Bytes per question stay as at the larger size (the dictionary only amortizes further); a
 * library index's memory and build time grow linearly.
 */
function printExtrapolation(small: SizeResult, large: SizeResult, target: number): void {
  const steps = Math.log(target / large.n) / Math.log(large.n / small.n);
  const growth = (a: number, b: number) => Math.pow(Math.max(1, b / Math.max(a, 1e-3)), steps);
  const linear = (a: number, b: number) => b + (b - a) * (target - large.n) / (large.n - small.n);
  console.log(
    `\nExtrapolated to ${thousands(target)} questions (not measured): p50 on the log-log line ` +
      `through ${thousands(small.n)} and ${thousands(large.n)} (never falling), p99 at ` +
      `${thousands(large.n)}'s p99/p50 ratio; bytes per question as at ${thousands(large.n)}; ` +
      `in-process memory and build time linear`,
  );
  const rows = [["engine", "query", "p50 (extrapolated)", "p99 (extrapolated)", "goal 15/60 ms"]];
  for (const [i, s] of large.sides.entries()) {
    const a = small.sides[i];
    for (const [k, t] of s.queries.entries()) {
      const g = growth(a.queries[k].p50, t.p50);
      const p50 = t.p50 * g;
      const p99 = t.p99 * g;
      rows.push([
        s.engine,
        CORPUS_QUERIES[k].kind,
        ms(p50),
        ms(p99),
        p50 <= 15 && p99 <= 60 ? "met" : p50 <= 15 ? "p50 met, p99 missed" : "missed",
      ]);
    }
  }
  table(rows);
  for (const [i, s] of large.sides.entries()) {
    const a = small.sides[i];
    if (s.bytes) {
      const perQ = (s.bytes.withIndex - s.bytes.without) / large.n;
      const logical = s.bytes.logical / large.n;
      const goal = (b: number) => b <= 2048 ? "met" : "missed";
      console.log(
        `  ${s.engine}: ~${thousands(Math.round(perQ))} B of index per question on disk → ~${
          mb(perQ * target)
        } at ${thousands(target)} (goal ≤ 2,048 B: ${goal(perQ)}); ${
          thousands(Math.round(logical))
        } B logical (keys + values: ${goal(logical)})`,
      );
    }
    if (s.library && a.library) {
      const heap = linear(a.library.heapUsed, s.library.heapUsed);
      const rss = linear(a.library.rss, s.library.rss);
      const build = linear(
        a.library.readMs + a.library.buildMs,
        s.library.readMs + s.library.buildMs,
      );
      console.log(
        `  ${s.engine}: heap ~${mb(heap)}, RSS ~${mb(rss)}, cold start (read + build) ~${
          (build / 1000).toFixed(0)
        } s at ${thousands(target)} — ${
          rss <= DEPLOY_MEMORY ? "fits" : "does not fit"
        } Deno Deploy's 512 MB`,
      );
    }
  }
}

/** The section: every size, then the extrapolation. */
export async function run(): Promise<void> {
  const sizes = Deno.env.get("BENCH_SEARCH_SIZES")?.split(",").map(Number).filter((n) => n > 0) ??
    (Deno.env.get("BENCH_SEARCH_1M") === "1"
      ? [10_000, 100_000, 1_000_000]
      : Deno.env.get("BENCH_SEARCH_FULL") === "1"
      ? [10_000, 100_000]
      : [10_000]);
  const runs = Number(Deno.env.get("BENCH_SEARCH_RUNS") ?? 200);
  const commit = Deno.env.get("BENCH_SEARCH_BEFORE") ?? SEARCH_BEFORE_COMMIT;
  const orama = Deno.env.get("BENCH_SEARCH_ORAMA") !== "0";
  console.log(
    `\nSearch — ${
      sizes.map(thousands).join(", ")
    } questions, ${runs} warm runs per query, KV on a temp file`,
  );
  for (const q of CORPUS_QUERIES) console.log(`  ${q.kind.padEnd(9)} "${q.q}": ${q.intent}`);
  const measureAll = async (before: string | null) => {
    const results: SizeResult[] = [];
    for (const n of sizes) {
      const r = await measureSize(n, runs, before, orama);
      printLatency(r, runs);
      printCosts(r);
      results.push(r);
    }
    const [small, large] = results.slice(-2);
    if (large && !sizes.includes(1_000_000)) printExtrapolation(small, large, 1_000_000);
    else if (!large) {
      console.log(`\n(1M not extrapolated from one size: BENCH_SEARCH_FULL=1 adds 100k)`);
    }
  };
  if (commit === "none") {
    console.log("  previous search: skipped (BENCH_SEARCH_BEFORE=none)");
    await measureAll(null);
  } else await withBeforeTree(commit, measureAll);
}

if (import.meta.main) await run();

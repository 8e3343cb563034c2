/**
 * `BENCH_ONLY=cache deno task bench`: the process-local caches (lib/cache.ts) against the
 * eviction code each cache wrote for itself before ({@link CACHE_BEFORE}), in the same run.
 *
 * The "before" tree is checked out and built by bench/before_tree.ts; its modules are
 * imported into this process beside this tree's, so each pair of figures comes from the
 * same process, the same data and the same minute. Two parts:
 * - operations on the hot paths, ns per operation (median of alternating rounds): a
 *   rendered-part hit and a fill that evicts (lib/fresh/html_cache.ts), a Markdown hit
 *   (lib/markdown.ts), a feed read hit (lib/community/read_cache.ts), an agent rate-limit
 *   hit with tokens in hand (lib/limits/slices.ts);
 * - the signed-in question page in-process (30 Markdown answers, rendered parts), req/s
 *   and p50/p99 ms, each tree in its own process on its own store (bench/speed_worker.ts
 *   `inproc … page`), two rounds alternating before/after.
 *
 * Environment: BENCH_SECONDS (default 5, per page run), BENCH_CACHE_BEFORE (the before
 * commit), BENCH_QUESTIONS (questions seeded besides the page's; default here 2,000: the
 * page reads the same whatever the total).
 *
 * @module
 */
import { HtmlCache } from "../lib/fresh/html_cache.ts";
import { renderMarkdown } from "../lib/markdown.ts";
import { cachedRead } from "../lib/community/read_cache.ts";
import { hitSlicedLimit } from "../lib/limits/slices.ts";
import { withBeforeTree } from "./before_tree.ts";
import { startTree } from "./harness.ts";

/** The last commit before lib/cache.ts: each cache with its own eviction code. */
export const CACHE_BEFORE = "e4668cd";

interface CacheModules {
  HtmlCache: new (o: { maxEntries: number; maxBytes: number }) => {
    get(k: string): string | undefined;
    set(k: string, v: string): string;
  };
  renderMarkdown: (text: string, idPrefix?: string) => string;
  cachedRead: <T>(kv: Deno.Kv, key: string, ttlMs: number, load: () => Promise<T>) => Promise<T>;
  hitSlicedLimit: typeof hitSlicedLimit;
}

interface PageFigures {
  questionSignedIn: { rps: number; p50: number; p99: number };
}

const ANSWER = (i: number) =>
  `Answer ${i}: **KV** keeps *every* read small.\n\n- one \`getMany\`\n- counts with \`sum\`\n\n` +
  "```ts\nconst r = await kv.getMany([a, b, c]);\n```\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n";

/** ns per operation of `op` over `n` calls. */
async function nsPerOp(n: number, op: (i: number) => unknown): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const r = op(i);
    if (r instanceof Promise) await r;
  }
  return (performance.now() - start) * 1e6 / n;
}

/** The cases: each makes its state with one tree's modules and returns the op to time. */
function cases(kv: Deno.Kv): [string, number, (m: CacheModules) => (i: number) => unknown][] {
  const html = "<li>" + "x".repeat(2000) + "</li>";
  const partKeys = Array.from({ length: 200 }, (_, i) => JSON.stringify(["answer", `m-${i}`, i]));
  const freshKeys = Array.from({ length: 5000 }, (_, i) => `fill-${i}`);
  const texts = Array.from({ length: 30 }, (_, i) => ANSWER(i));
  const feedKeys = Array.from({ length: 20 }, (_, i) => `feed:${i}`);
  return [
    ["rendered part hit (HtmlCache.get, 200 parts)", 400_000, (m) => {
      const c = new m.HtmlCache({ maxEntries: 4000, maxBytes: 16 * 1024 * 1024 });
      for (const k of partKeys) c.set(k, html);
      return (i) => c.get(partKeys[i % partKeys.length]);
    }],
    ["rendered part fill, evicting (HtmlCache.set past 1,000)", 200_000, (m) => {
      const c = new m.HtmlCache({ maxEntries: 1000, maxBytes: 16 * 1024 * 1024 });
      return (i) => c.set(freshKeys[i % freshKeys.length], html);
    }],
    ["Markdown hit (renderMarkdown, 30 cached answers)", 200_000, (m) => {
      for (const t of texts) m.renderMarkdown(t, "bench-");
      return (i) => m.renderMarkdown(texts[i % texts.length], "bench-");
    }],
    ["feed read hit (cachedRead, 20 keys)", 400_000, (m) => {
      const load = () => Promise.resolve(1);
      for (const k of feedKeys) m.cachedRead(kv, k, 3_600_000, load);
      return (i) => void m.cachedRead(kv, feedKeys[i % feedKeys.length], 3_600_000, load);
    }],
    ["agent rate-limit hit (hitSlicedLimit, tokens in hand)", 200_000, (m) => {
      // A fixed clock: every hit lands in one sub-bucket, served from memory.
      return () => m.hitSlicedLimit(kv, "bench", "key", 1e9, 60_000, 1_700_000_000_000);
    }],
  ];
}

async function operations(before: CacheModules, after: CacheModules): Promise<void> {
  const kvs = [await Deno.openKv(":memory:"), await Deno.openKv(":memory:")];
  try {
    console.log(
      "\n  operation (ns/op, median of 5 alternating rounds) | before | after | after/before",
    );
    const [caseList, caseListAfter] = [cases(kvs[0]), cases(kvs[1])];
    for (const [i, [name, n, make]] of caseList.entries()) {
      const ops = [make(before), caseListAfter[i][2](after)];
      // Warm both (JIT, and the rate limiter's claims up to its largest slice).
      for (const op of ops) await nsPerOp(Math.min(n, 50_000), op);
      const times: number[][] = [[], []];
      for (let round = 0; round < 5; round++) {
        for (const side of [0, 1]) times[side].push(await nsPerOp(n, ops[side]));
      }
      const [b, a] = times.map((t) => t.sort((x, y) => x - y)[2]);
      console.log(`  ${name} | ${b.toFixed(0)} | ${a.toFixed(0)} | ${(a / b).toFixed(2)}×`);
    }
  } finally {
    for (const kv of kvs) kv.close();
  }
}

async function pages(beforeRoot: string): Promise<void> {
  const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const dir = await Deno.makeTempDir({ prefix: "parley-cache-bench-" });
  try {
    console.log("\n  GET /questions/:id signed in, 30 answers, in-process | req/s | p50/p99 ms");
    for (let round = 1; round <= 2; round++) {
      for (const [name, tree] of [["before", beforeRoot], ["after", root]]) {
        const w = await startTree<PageFigures>(tree, "inproc", `${dir}/${name}.kv`, ["page"]);
        await w.stop();
        const q = w.info.questionSignedIn;
        console.log(
          `  round ${round}, ${name} | ${q.rps.toFixed(0)} | ${q.p50.toFixed(2)}/${
            q.p99.toFixed(2)
          }`,
        );
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Run the section: operations, then the in-process page, before against after.
 *
 * @example
 * ```ts
 * await run();
 * ```
 */
export async function run(): Promise<void> {
  console.log("\nCaches: lib/cache.ts against each cache's own eviction code, same run");
  if (!Deno.env.get("BENCH_QUESTIONS")) Deno.env.set("BENCH_QUESTIONS", "2000");
  const commit = Deno.env.get("BENCH_CACHE_BEFORE") ?? CACHE_BEFORE;
  await withBeforeTree(commit, async (root) => {
    if (!root) return;
    const old = (path: string) => import(`file://${root}/${path}`);
    const before: CacheModules = {
      HtmlCache: (await old("lib/fresh/html_cache.ts")).HtmlCache,
      renderMarkdown: (await old("lib/markdown.ts")).renderMarkdown,
      cachedRead: (await old("lib/community/read_cache.ts")).cachedRead,
      hitSlicedLimit: (await old("lib/limits/slices.ts")).hitSlicedLimit,
    };
    await operations(before, { HtmlCache, renderMarkdown, cachedRead, hitSlicedLimit });
    await pages(root);
  });
}

if (import.meta.main) await run();

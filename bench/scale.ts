/**
 * `BENCH_ONLY=scale` (not part of CI): the curve of a growing store. One store is loaded
 * by bench/scale_load.ts (the domain's own writes, concurrent) to 10k, then 100k questions
 * (BENCH_SCALE_SIZES, comma-separated), and at each size this prints:
 *
 * - the loader's rate (questions, answers, votes a second, wall clock);
 * - bytes per question: the store file after a checkpoint (the loader's store closed, so
 *   SQLite folds its WAL in), divided by the questions;
 * - a fresh instance: `main.ts` started in its own process on the store, a warm-up set of
 *   requests (home, feed pages, question pages, tags, searches), then its RSS (VmRSS of
 *   /proc/<pid>/status) — and the same after the measured requests, after a spread of
 *   distinct pages (every route once, /docs/api included, then 1,000 question pages and
 *   250 each of feed pages, search pages and API searches: more than the caches hold), and
 *   after a full garbage collection (through the inspector, bench/heap_probe.ts) with V8's
 *   used heap — what the process holds, as against what V8 has not collected yet;
 * - first, the same instance on an empty store, in the same run: the baseline the sizes
 *   compare with, and the RSS slope per 100k questions between the last two sizes;
 * - feed page (`/?page=k`, k spread over the first 500 pages), question page
 *   (`/questions/:id`, random questions) and search (`/api/questions?q=`, one or two
 *   corpus words) p50/p99: sequential requests from this process, each URL different, so
 *   the one-second caches do not answer them.
 *
 * 1M runs when named in BENCH_SCALE_SIZES and the measured load rate says it fits in 30
 * minutes; otherwise its row is extrapolated from the last two sizes (bytes per question
 * kept, latencies grown by the last decade's change, RSS linear in the store at the
 * measured slope, never below the last size) and labelled "extrapolated".
 *
 * The store lives in BENCH_SCALE_DIR (default /dev/shm when present: the loader writes
 * several GB, and a disk's per-commit sync would make it measure the disk).
 *
 * @module
 */
import { createTestApp, type TestApp } from "../tests/helpers/app.ts";
import { collectOutput, localMainEnv, spawnMain, waitHealthy } from "../tests/helpers/processes.ts";
import { jobRunner } from "../lib/jobs/runner.ts";
import { connectHeapProbe, inspectFlag, rssOf } from "./heap_probe.ts";
import { type Community, loadQuestions, newCommunity } from "./scale_load.ts";
import { prng, TAGS, VOCABULARY } from "./search_corpus.ts";
import { freePort } from "../tests/helpers/oauth.ts";

const SIZES = (Deno.env.get("BENCH_SCALE_SIZES") ?? "10000,100000,1000000").split(",")
  .map((s) => Number(s.trim())).filter((n) => Number.isSafeInteger(n) && n > 0)
  .sort((a, b) => a - b);
const CONCURRENCY = Number(Deno.env.get("BENCH_SCALE_CONCURRENCY") ?? 64);
/** Requests per measured kind. */
const SAMPLES = Number(Deno.env.get("BENCH_SCALE_SAMPLES") ?? 200);
/** Longest a load may be predicted to take before it is extrapolated instead. */
const LOAD_BUDGET_MS = 30 * 60_000;
/** Instances measured per size; each RSS figure is the least of them (GC timing is noise). */
const REPEATS = Math.max(1, Number(Deno.env.get("BENCH_SCALE_REPEATS") ?? 2));

/**
 * The V8 flags `deno task start` runs `main.ts` with (deno.json): the instance measured is
 * the one that task starts.
 */
async function startTaskV8Flags(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  const flag = /(--v8-flags=\S+) main\.ts/.exec(config.tasks.start)?.[1];
  return flag ? [flag] : [];
}

/** Distinct question pages in the spread (and a quarter as many of each other kind). */
const SPREAD = Number(Deno.env.get("BENCH_SCALE_SPREAD") ?? 1000);

/** One size's figures. */
interface Point {
  questions: number;
  bytesPerQuestion: number;
  feed: Latency;
  question: Latency;
  search: Latency;
  /** RSS as it is: after the warm-up, the measured requests, the spread of distinct pages. */
  rssWarm: number;
  rssAfter: number;
  rssSpread: number;
  /** After the spread and a full collection: what the process holds, and V8's share. */
  rssLive: number;
  heapLive: number;
  /** Distinct URLs the spread asked for. */
  spreadPages: number;
  /** Each instance's {@link FIGURES}. */
  instances?: number[][];
  extrapolated?: boolean;
}

interface Latency {
  p50: number;
  p99: number;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Sequential GETs of `urls`, each timed to its body's end: p50 and p99 (ms). */
async function timed(urls: string[]): Promise<Latency> {
  const ms: number[] = [];
  for (const url of urls) {
    const t = performance.now();
    const res = await fetch(url, { headers: { "accept-encoding": "br" } });
    await res.arrayBuffer();
    ms.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  }
  ms.sort((a, b) => a - b);
  return { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) };
}

/** GETs of `urls` whatever their status (the spread includes pages that need a session). */
async function visit(urls: string[]): Promise<void> {
  for (const url of urls) {
    const res = await fetch(url, { headers: { "accept-encoding": "br" }, redirect: "manual" });
    await res.arrayBuffer();
    if (res.status >= 500) throw new Error(`${url}: ${res.status}`);
  }
}

/** Every kind of page a visitor or agent can load, so each route's code is in memory. */
const ROUTE_PAGES = [
  "/docs/api",
  "/api/openapi.json",
  "/skill.md",
  "/debates",
  "/roundtables",
  "/signin",
  "/ask",
  "/robots.txt",
  "/feeds/questions.atom",
  "/api/questions",
  "/notifications",
  "/profile",
  "/mod",
  "/u/nobody",
  "/questions/nope",
];

async function storeBytes(path: string): Promise<number> {
  let n = 0;
  for (const s of ["", "-wal"]) n += await Deno.stat(path + s).then((f) => f.size, () => 0);
  return n;
}

const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;
const ms = (l: Latency) => `${l.p50.toFixed(1)} / ${l.p99.toFixed(1)} ms`;

/**
 * Serve the store from a fresh `main.ts` (its inspector open, to read the heap), warm it,
 * measure it, then ask for a spread of distinct pages and read its RSS as it is and after
 * a full collection. `c` null: the empty store, the baseline (no question pages).
 */
async function measureInstance(kvPath: string, c: Community | null, n: number): Promise<Point> {
  const runs: Point[] = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await measureOnce(kvPath, c, n, i));
  const least = (f: (p: Point) => number) => Math.min(...runs.map(f));
  return {
    ...runs[0],
    rssWarm: least((p) => p.rssWarm),
    rssAfter: least((p) => p.rssAfter),
    rssSpread: least((p) => p.rssSpread),
    rssLive: least((p) => p.rssLive),
    heapLive: least((p) => p.heapLive),
    instances: runs.map((p) => FIGURES.map(([, f]) => f(p))),
  };
}

async function measureOnce(
  kvPath: string,
  c: Community | null,
  n: number,
  run: number,
): Promise<Point> {
  const inspectPort = freePort();
  const { origin, env } = localMainEnv(kvPath, { EXPERT_PANEL_PER_DAY: "0" });
  const child = spawnMain(env, ["-A", ...await startTaskV8Flags(), inspectFlag(inspectPort)]);
  const output = collectOutput(child);
  try {
    await waitHealthy(origin, 60_000);
    const rand = prng(n + 1 + run * 7919);
    const questionPage = () =>
      c ? `${origin}/questions/${c.questionIds[Math.floor(rand() * n)]}` : `${origin}/?w=${rand()}`;
    const pages = Math.max(1, Math.min(500, Math.floor(n / 20)));
    const word = () => VOCABULARY[Math.floor(rand() * Math.min(2000, VOCABULARY.length))];
    const urls = {
      feed: () => `${origin}/?page=${1 + Math.floor(rand() * pages)}&w=${rand()}`,
      question: questionPage,
      search: () =>
        `${origin}/api/questions?q=${
          encodeURIComponent(rand() < 0.5 ? word() : `${word()} ${word()}`)
        }`,
      searchPage: () => `${origin}/?q=${encodeURIComponent(word())}&w=${rand()}`,
    };
    // Warm-up: what a new instance's first visitors ask for.
    const warm = [
      ...Array.from({ length: 10 }, () => `${origin}/`),
      ...Array.from({ length: 20 }, urls.feed),
      ...Array.from({ length: 30 }, urls.question),
      ...TAGS.slice(0, 10).map((t) => `${origin}/?tag=${encodeURIComponent(t)}`),
      ...Array.from({ length: 30 }, urls.search),
      `${origin}/sitemap.xml`,
    ];
    await timed(warm);
    await new Promise((r) => setTimeout(r, 1_000));
    const rssWarm = (await rssOf(child.pid)).rss;
    const feed = await timed(Array.from({ length: SAMPLES }, urls.feed));
    const question = await timed(Array.from({ length: SAMPLES }, urls.question));
    const search = await timed(Array.from({ length: SAMPLES }, urls.search));
    const rssAfter = (await rssOf(child.pid)).rss;
    // The spread: every route, then distinct question, feed and search pages — more than
    // the caches hold, so what stays is their bounds, not the store.
    const spread = [
      ...ROUTE_PAGES.map((p) => origin + p),
      ...Array.from({ length: SPREAD }, urls.question),
      ...Array.from({ length: SPREAD / 4 }, urls.feed),
      ...Array.from({ length: SPREAD / 4 }, urls.searchPage),
      ...Array.from({ length: SPREAD / 4 }, urls.search),
    ];
    await visit(spread);
    await new Promise((r) => setTimeout(r, 1_000));
    const rssSpread = (await rssOf(child.pid)).rss;
    const probe = await connectHeapProbe(inspectPort);
    const live = await probe.collected(child.pid);
    probe.close();
    return {
      questions: n,
      bytesPerQuestion: n ? (await storeBytes(kvPath)) / n : 0,
      feed,
      question,
      search,
      rssWarm,
      rssAfter,
      rssSpread,
      rssLive: live.rss,
      heapLive: live.heapUsed,
      spreadPages: spread.length,
    };
  } catch (err) {
    console.error(output());
    throw err;
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}

function printPoint(p: Point): void {
  const label = p.questions === 0
    ? "Empty store (baseline, same run; no question pages)"
    : `${p.questions.toLocaleString("en")} questions${p.extrapolated ? " (extrapolated)" : ""}`;
  console.log(`\n${label}`);
  if (p.questions > 0) {
    console.log(
      `  bytes per question (file after checkpoint)  ${(p.bytesPerQuestion / 1024).toFixed(1)} KB`,
    );
  }
  console.log(`  feed page /?page=k p50 / p99                 ${ms(p.feed)}`);
  console.log(`  question page p50 / p99                      ${ms(p.question)}`);
  console.log(`  search /api/questions?q= p50 / p99           ${ms(p.search)}`);
  console.log(
    `  RSS of one instance after warm-up            ${mb(p.rssWarm)}  (${
      mb(p.rssAfter)
    } after the measured requests; goal at 1M: ≤ 200 MB)`,
  );
  console.log(
    `  RSS after a spread of ${p.spreadPages} distinct pages   ${mb(p.rssSpread)}  (${
      mb(p.rssLive)
    } after a full GC, V8 heap ${mb(p.heapLive)})${
      p.extrapolated
        ? "  [linear at the measured slope, or kept where the change was within the noise]"
        : ""
    }`,
  );
  if (p.instances && p.instances.length > 1) {
    console.log(
      `  (least of ${p.instances.length} instances; each warm-up / measured / spread / full GC: ${
        p.instances.map((r) => r.slice(0, 4).map(mb).join(" / ")).join("; ")
      })`,
    );
  }
}

/**
 * The next size from the last two points. Latencies grow by the last decade's change per
 * decade; bytes per question are kept; each memory figure grows linearly with the store at
 * the slope measured between the two points (never below the last point), unless its
 * change lies within the noise between instances of one size ({@link noiseOf}): then no
 * slope was measured, and the figure is kept (the table of {@link printSlopes} still shows
 * the linear value). Nothing held in memory should scale with the store: a flat slope is
 * the claim this checks.
 */
function extrapolate(a: Point, b: Point, n: number): Point {
  const decades = Math.log10(n / b.questions) / Math.log10(b.questions / a.questions);
  const grow = (x: number, y: number) => Math.max(y, y + (y - x) * decades);
  const lat = (x: Latency, y: Latency) => ({ p50: grow(x.p50, y.p50), p99: grow(x.p99, y.p99) });
  const memory = (i: number) => {
    const f = FIGURES[i][1];
    const change = f(b) - f(a);
    if (Math.abs(change) <= noiseOf(a, b, i)) return f(b);
    return Math.max(f(b), f(b) + change / (b.questions - a.questions) * (n - b.questions));
  };
  return {
    questions: n,
    bytesPerQuestion: b.bytesPerQuestion,
    feed: lat(a.feed, b.feed),
    question: lat(a.question, b.question),
    search: lat(a.search, b.search),
    rssWarm: memory(0),
    rssAfter: memory(1),
    rssSpread: memory(2),
    rssLive: memory(3),
    heapLive: memory(4),
    spreadPages: b.spreadPages,
    instances: undefined,
    extrapolated: true,
  };
}

/** How far apart instances of one size landed on figure `i`, the larger of two sizes'. */
function noiseOf(a: Point, b: Point, i: number): number {
  const spreadOf = (p: Point) =>
    p.instances
      ? Math.max(...p.instances.map((r) => r[i])) - Math.min(...p.instances.map((r) => r[i]))
      : 0;
  return Math.max(spreadOf(a), spreadOf(b));
}

/** The memory figures of a point, by name, and how to read each from one instance. */
const FIGURES: [string, (p: Point) => number][] = [
  ["RSS after warm-up", (p) => p.rssWarm],
  ["RSS after the measured requests", (p) => p.rssAfter],
  ["RSS after the spread", (p) => p.rssSpread],
  ["RSS after a full GC", (p) => p.rssLive],
  ["V8 heap after a full GC", (p) => p.heapLive],
];

/**
 * Each memory figure against the empty store and between the last two sizes: the change,
 * the slope per 100k questions, 1M linear at that slope, and the noise — how far apart
 * instances of one size landed — so a change within it reads as what it is.
 */
function printSlopes(base: Point, measured: Point[]): void {
  if (measured.length < 2) return;
  const [a, b] = [measured.at(-2)!, measured.at(-1)!];
  const n = (x: number) => x.toLocaleString("en");
  console.log(
    `\nMemory against the store (least of ${REPEATS} instances each; MB): empty store / ` +
      `${n(a.questions)} / ${n(b.questions)} questions; change; per 100k; 1M linear; noise`,
  );
  FIGURES.forEach(([name, f], i) => {
    const change = f(b) - f(a);
    const slope = change / (b.questions - a.questions);
    const linear = Math.max(f(b), f(b) + slope * (1_000_000 - b.questions));
    const noise = noiseOf(a, b, i);
    const m = (x: number) => (x / 1048576).toFixed(0);
    console.log(
      `  ${name.padEnd(32)} ${m(f(base))} / ${m(f(a))} / ${m(f(b))}; ${change >= 0 ? "+" : ""}${
        m(change)
      }; ${(slope * 100_000 / 1048576).toFixed(1)}; ${m(linear)}; ±${m(noise)}${
        Math.abs(change) <= noise ? "  (within the noise: flat)" : ""
      }`,
    );
  });
}

/**
 * Run the section.
 *
 * @example
 * ```ts
 * await run();
 * ```
 */
export async function run(): Promise<void> {
  const shm = await Deno.stat("/dev/shm").then((s) => s.isDirectory, () => false);
  const base = Deno.env.get("BENCH_SCALE_DIR") ?? (shm ? "/dev/shm" : undefined);
  const dir = await Deno.makeTempDir({ dir: base, prefix: "parley-scale-" });
  const kvPath = `${dir}/scale.kv`;
  console.log(
    `\n## Scale: one store grown to ${SIZES.join(", ")} questions (${kvPath}; ` +
      `${CONCURRENCY} threads loading at once; each instance started as \`deno task start\` ` +
      `starts it: ${(await startTaskV8Flags()).join(" ") || "no V8 flags"})`,
  );
  const points: Point[] = [];
  // The baseline: the same instance on an empty store, in this run.
  const emptyDir = await Deno.makeTempDir({ dir: base, prefix: "parley-scale-empty-" });
  const baseline = await measureInstance(`${emptyDir}/empty.kv`, null, 0)
    .finally(() => Deno.remove(emptyDir, { recursive: true }).catch(() => {}));
  printPoint(baseline);
  let t: TestApp | null = null;
  let community: Community | null = null;
  let rate = 0; // questions a second of the last load
  try {
    for (const n of SIZES) {
      const have = community?.questionIds.length ?? 0;
      const predicted = rate ? (n - have) / rate * 1000 : 0;
      if (points.length >= 2 && predicted > LOAD_BUDGET_MS) {
        console.log(
          `\n${n.toLocaleString("en")}: loading would take ~${
            (predicted / 60_000).toFixed(0)
          } min at ${rate.toFixed(0)} questions/s (over 30): extrapolated`,
        );
        const p = extrapolate(points.at(-2)!, points.at(-1)!, n);
        printSlopes(baseline, points.filter((q) => !q.extrapolated));
        printPoint(p);
        points.push(p);
        continue;
      }
      t = await createTestApp({ kvPath });
      community = community ?? newCommunity(t.kv, SIZES.at(-1)!);
      community.kv = t.kv;
      let last = performance.now();
      const stats = await loadQuestions(community, n, CONCURRENCY, (done, s) => {
        const now = performance.now();
        if (now - last > 30_000) {
          console.log(
            `  … ${done.toLocaleString("en")} questions (${s.answers} answers, ${s.votes} votes)`,
          );
          last = now;
        }
      });
      const jobsStart = performance.now();
      await jobRunner(t.kv).waitIdle(600_000);
      const jobsMs = performance.now() - jobsStart;
      await t.close();
      t = null;
      const sec = stats.ms / 1000;
      rate = stats.questions / sec;
      console.log(
        `\nLoaded ${stats.questions.toLocaleString("en")} questions to ${n.toLocaleString("en")} ` +
          `in ${sec.toFixed(0)} s: ${rate.toFixed(0)} questions/s, ` +
          `${(stats.answers / sec).toFixed(0)} answers/s, ${
            (stats.votes / sec).toFixed(0)
          } votes/s ` +
          `(${stats.answers} answers, ${stats.votes} votes, ${stats.follows} follows, ` +
          `${stats.users} new members; fan-outs done ${(jobsMs / 1000).toFixed(1)} s after)`,
      );
      const p = await measureInstance(kvPath, community, n);
      printPoint(p);
      points.push(p);
    }
    if (!points.at(-1)?.extrapolated) printSlopes(baseline, points);
  } finally {
    if (t) await t.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await run();

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
 *   /proc/<pid>/status) — and the same after the measured requests;
 * - feed page (`/?page=k`, k spread over the first 500 pages), question page
 *   (`/questions/:id`, random questions) and search (`/api/questions?q=`, one or two
 *   corpus words) p50/p99: sequential requests from this process, each URL different, so
 *   the one-second caches do not answer them.
 *
 * 1M runs when named in BENCH_SCALE_SIZES and the measured load rate says it fits in 30
 * minutes; otherwise its row is extrapolated from the last two sizes (bytes per question
 * kept, the rest grown by the last decade's change) and labelled "extrapolated".
 *
 * The store lives in BENCH_SCALE_DIR (default /dev/shm when present: the loader writes
 * several GB, and a disk's per-commit sync would make it measure the disk).
 *
 * @module
 */
import { createTestApp, type TestApp } from "../tests/helpers/app.ts";
import { collectOutput, spawnMain, waitHealthy } from "../tests/helpers/processes.ts";
import { jobRunner } from "../lib/jobs/runner.ts";
import { type Community, loadQuestions, newCommunity } from "./scale_load.ts";
import { prng, TAGS, VOCABULARY } from "./search_corpus.ts";

const SIZES = (Deno.env.get("BENCH_SCALE_SIZES") ?? "10000,100000,1000000").split(",")
  .map((s) => Number(s.trim())).filter((n) => Number.isSafeInteger(n) && n > 0)
  .sort((a, b) => a - b);
const CONCURRENCY = Number(Deno.env.get("BENCH_SCALE_CONCURRENCY") ?? 64);
/** Requests per measured kind. */
const SAMPLES = Number(Deno.env.get("BENCH_SCALE_SAMPLES") ?? 200);
/** Longest a load may be predicted to take before it is extrapolated instead. */
const LOAD_BUDGET_MS = 30 * 60_000;

/** One size's figures. */
interface Point {
  questions: number;
  bytesPerQuestion: number;
  feed: Latency;
  question: Latency;
  search: Latency;
  rssWarm: number;
  rssAfter: number;
  extrapolated?: boolean;
}

interface Latency {
  p50: number;
  p99: number;
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function rssOf(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb[1]) * 1024;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Sequential GETs of `urls`, each timed to its body's end: p50 and p99 (ms). */
async function timed(urls: string[]): Promise<Latency> {
  const ms: number[] = [];
  for (const url of urls) {
    const t = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    ms.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  }
  ms.sort((a, b) => a - b);
  return { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) };
}

async function storeBytes(path: string): Promise<number> {
  let n = 0;
  for (const s of ["", "-wal"]) n += await Deno.stat(path + s).then((f) => f.size, () => 0);
  return n;
}

const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;
const ms = (l: Latency) => `${l.p50.toFixed(1)} / ${l.p99.toFixed(1)} ms`;

/** Serve the store from a fresh `main.ts`, warm it, measure it. */
async function measureInstance(kvPath: string, c: Community, n: number): Promise<Point> {
  const port = freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawnMain({
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    APP_ORIGIN: origin,
    KV_PATH: kvPath,
    LOCAL_MODE: "on",
    EXPERT_PANEL_PER_DAY: "0",
  });
  const output = collectOutput(child);
  try {
    await waitHealthy(origin, 60_000);
    const rand = prng(n);
    const anyQuestion = () => c.questionIds[Math.floor(rand() * n)];
    const pages = Math.max(1, Math.min(500, Math.floor(n / 20)));
    const word = () => VOCABULARY[Math.floor(rand() * Math.min(2000, VOCABULARY.length))];
    const urls = {
      feed: () => `${origin}/?page=${1 + Math.floor(rand() * pages)}&w=${rand()}`,
      question: () => `${origin}/questions/${anyQuestion()}`,
      search: () =>
        `${origin}/api/questions?q=${
          encodeURIComponent(rand() < 0.5 ? word() : `${word()} ${word()}`)
        }`,
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
    const rssWarm = await rssOf(child.pid);
    const feed = await timed(Array.from({ length: SAMPLES }, urls.feed));
    const question = await timed(Array.from({ length: SAMPLES }, urls.question));
    const search = await timed(Array.from({ length: SAMPLES }, urls.search));
    const rssAfter = await rssOf(child.pid);
    return {
      questions: n,
      bytesPerQuestion: (await storeBytes(kvPath)) / n,
      feed,
      question,
      search,
      rssWarm,
      rssAfter,
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
  const label = `${p.questions.toLocaleString("en")} questions${
    p.extrapolated ? " (extrapolated)" : ""
  }`;
  console.log(`\n${label}`);
  console.log(
    `  bytes per question (file after checkpoint)  ${(p.bytesPerQuestion / 1024).toFixed(1)} KB`,
  );
  console.log(`  feed page /?page=k p50 / p99                 ${ms(p.feed)}`);
  console.log(`  question page p50 / p99                      ${ms(p.question)}`);
  console.log(`  search /api/questions?q= p50 / p99           ${ms(p.search)}`);
  console.log(
    `  RSS of one instance after warm-up            ${mb(p.rssWarm)}  (${
      mb(p.rssAfter)
    } after the measured requests; goal at 1M: ≤ 200 MB)`,
  );
}

/** The next decade from the last two points: bytes kept, the rest grown by the last change. */
function extrapolate(a: Point, b: Point, n: number): Point {
  const decades = Math.log10(n / b.questions) / Math.log10(b.questions / a.questions);
  const grow = (x: number, y: number) => Math.max(y, y + (y - x) * decades);
  const lat = (x: Latency, y: Latency) => ({ p50: grow(x.p50, y.p50), p99: grow(x.p99, y.p99) });
  return {
    questions: n,
    bytesPerQuestion: b.bytesPerQuestion,
    feed: lat(a.feed, b.feed),
    question: lat(a.question, b.question),
    search: lat(a.search, b.search),
    rssWarm: grow(a.rssWarm, b.rssWarm),
    rssAfter: grow(a.rssAfter, b.rssAfter),
    extrapolated: true,
  };
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
      `${CONCURRENCY} threads loading at once)`,
  );
  const points: Point[] = [];
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
  } finally {
    if (t) await t.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await run();

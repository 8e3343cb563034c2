/**
 * `deno task bench`: every figure printed next to a baseline measured in the same run.
 *
 * Baseline: a bare Hono app answering JSON on the same runtime and machine.
 * Measured: Parley's home page (SSR from KV with 20 questions, layouts, island state);
 * then bench/community.ts: votes on one hot question (against the raw KV `sum` commit
 * rate) and the agent question list over 100,000 questions (against bare Hono).
 *
 * Environment: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 50), BENCH_ONLY (a
 * comma-separated subset of home, signin, debate, community, participation, speed, stress,
 * cache, notifications, panel, roundtable, streams, rerank, backup, search, insights, bytes, growth,
 * hydration, coldstart, goals; `scale` runs only when named: bench/scale.ts). The search section (bench/search.ts) runs
 * at 10k questions; BENCH_SEARCH_FULL=1 adds 100k and the extrapolation to 1M. The speed and stress sections build their "before" trees
 * themselves from named commits (bench/before_tree.ts: a temporary git worktree, removed
 * after; skipped with a line where git or the commit is missing); BENCH_BEFORE names the
 * speed section's commit (`none` skips it). BENCH_V8_FLAGS passes V8 flags to the servers
 * bench/harness.ts `startTree` starts (e.g. the ones `deno task start` uses).
 */
import { Hono } from "hono";
import { createQuestion } from "../lib/community/questions/write.ts";
import { serveOnLoopback } from "../tests/helpers/app.ts";
import { run as runDebateBench } from "./debate.ts";
import { run as runCommunity } from "./community.ts";
import { benchApp, load, row } from "./harness.ts";

const seconds = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
const only = Deno.env.get("BENCH_ONLY")?.split(",").map((s) => s.trim()).filter(Boolean);
/** Whether a section runs (all of them unless BENCH_ONLY names some). */
const wanted = (name: string) => !only || only.includes(name);
const connections = Number(Deno.env.get("BENCH_CONNECTIONS") ?? 50);

console.log(`Parley benchmarks — ${seconds}s per run, ${connections} connections, loopback`);
console.log(`Deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores\n`);

if (wanted("home")) {
  const bare = new Hono().get("/json", (c) => c.json({ ok: true, message: "hello" }));
  const bareSrv = serveOnLoopback(bare.fetch);

  const app = await benchApp();
  for (let i = 0; i < 20; i++) {
    await createQuestion(app.kv, {
      title: `Benchmark question number ${i} about Deno KV and Preact islands`,
      description: "Seeded for the home page benchmark.",
      tags: ["bench", "deno"],
      author: { id: "u-bench", name: "Bench", avatar: null },
      createdBy: "user",
    }, { now: Date.now() - (20 - i) * 1000 });
  }
  const appSrv = serveOnLoopback(app.app.fetch);

  try {
    // Warm both servers so JIT and KV caches settle before measuring.
    await load(`${bareSrv.url}/json`, 1, connections);
    await load(`${appSrv.url}/`, 1, connections);

    const baseline = await load(`${bareSrv.url}/json`, seconds, connections);
    const home = await load(`${appSrv.url}/`, seconds, connections);
    // The same page with the one-second feed cache off: every request reads KV.
    app.services.feedCacheMs = 0;
    const uncached = await load(`${appSrv.url}/`, seconds, connections);
    delete app.services.feedCacheMs;
    const health = await load(`${appSrv.url}/healthz`, seconds, connections);

    console.log(row("bare Hono JSON (baseline)", `${baseline.requestsPerSec.toFixed(0)} req/s`, 1));
    console.log(
      row(
        "GET / home page (20 questions, SSR)",
        `${home.requestsPerSec.toFixed(0)} req/s`,
        home.requestsPerSec / baseline.requestsPerSec,
      ),
    );
    console.log(
      row(
        "GET / home page, feed cache off (KV reads)",
        `${uncached.requestsPerSec.toFixed(0)} req/s`,
        uncached.requestsPerSec / baseline.requestsPerSec,
      ),
    );
    console.log(
      row(
        "GET /healthz (KV read, full middleware)",
        `${health.requestsPerSec.toFixed(0)} req/s`,
        health.requestsPerSec / baseline.requestsPerSec,
      ),
    );
    console.log(
      `\nlatency p50/p99 ms — baseline ${baseline.latencyP50}/${baseline.latencyP99}, home ${home.latencyP50}/${home.latencyP99}, uncached ${uncached.latencyP50}/${uncached.latencyP99}`,
    );
    const failures = [baseline, home, uncached, health].reduce(
      (n, r) => n + r.non2xx + r.errors,
      0,
    );
    if (failures > 0) {
      console.error(`${failures} failed or non-2xx responses during the runs`);
      Deno.exitCode = 1;
    }
  } finally {
    await bareSrv.close();
    await appSrv.close();
    await app.close();
  }
}

if (wanted("signin")) await (await import("./signin.ts")).run();
// Debates: SSE latency against a same-run baseline, and memory under concurrent debates.
if (wanted("debate")) await runDebateBench();
// Community: votes on a hot question, and the agent list over 100,000 questions.
if (wanted("community")) await runCommunity();
// Agent participation and the AI avatar: the cost of one atomic answer, against KV commits.
if (wanted("participation")) await (await import("./participation.ts")).run();
// Speed: the table, before (base worktree) and after, same run.
if (wanted("speed")) await (await import("./speed.ts")).run();
// Stress: 3 processes on one KV file, 90 writers, against the base commit in the same run.
if (wanted("stress")) await (await import("./stress.ts")).run();

// Caches: lib/cache.ts against each cache's own eviction code before it, same run.
if (wanted("cache")) await (await import("./cache.ts")).run();
if (wanted("notifications")) await (await import("./notifications.ts")).run();
if (wanted("panel")) await (await import("./panel.ts")).run();
// Roundtables: model calls and KV commits per roundtable, beside a debate.
if (wanted("roundtable")) await (await import("./roundtable.ts")).run();
// Streams: 8,000 attempted live streams against a real main.ts, beside bare Deno.serve.
if (wanted("streams")) await (await import("./streams.ts")).run();
// Semantic rerank: 30 candidates reranked, beside reading their records, same run.
if (wanted("rerank")) await (await import("./rerank.ts")).run();
// Backup, restore and fsck: entries a second and peak memory, beside a plain walk and copy.
if (wanted("backup")) {
  await (await import("./backup.ts")).run({ alone: only?.length === 1 });
}
// Search: the KV index beside MiniSearch/Orama in process and the previous search, same corpus.
if (wanted("search")) await (await import("./search.ts")).run();
// Opinion maps and summaries: a new answer to a refreshed map and summary, through the job runner.
if (wanted("insights")) await (await import("./insights.ts")).run();
// Bytes: store bytes per question with its thread, before compact storage and now, same run.
if (wanted("bytes")) await (await import("./bytes.ts")).run();
// Growth: ?sort=votes on 10,000 answers, and an answer to 10,000 followers (main.ts, same run).
if (wanted("growth")) await (await import("./growth.ts")).run();
// Hydration: the long tasks of waking a long page's islands on a phone-speed CPU, before
// and after sliced hydration (Chromium; skipped without it).
if (wanted("hydration")) await (await import("./hydration.ts")).run();
// Scale (only when named, not part of CI): one store loaded to 10k, 100k (1M) questions.
if (only?.includes("scale")) await (await import("./scale.ts")).run();
// Cold start: exec → first 200 on / for main.ts beside a bare Hono app, Deno 2.9 and 2.5.
if (wanted("coldstart")) await (await import("./coldstart.ts")).run();
// The raised throughput goals: pages with br, the signed-in page over HTTP, likes vs raw sum.
if (wanted("goals")) await (await import("./goals.ts")).run();

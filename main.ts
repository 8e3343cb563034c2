/**
 * Production entry: configuration → KV → app → `Deno.serve`, with a shutdown that fits
 * Deno Deploy's 5 s between SIGINT and SIGKILL.
 *
 * ## Start-up budget
 *
 * Deno Deploy starts an instance for a request and stops it after 5 s–10 min idle, so a
 * new instance's first answer waits for everything this module loads and runs first. Only
 * what that answer needs is loaded before `Deno.serve` answers; the rest is imported on
 * first use:
 *
 * - routes: `manifest.gen.ts` maps each route file to a loader, imported (with its folders'
 *   `_middleware` and `_layout`) when a request first matches it (lib/fresh/routes.ts);
 *   route URLPatterns compile on first use;
 * - islands: loaders too, imported with the first route whose files reach them (the
 *   build's `routeIslands` table), so a page loads only its own islands;
 * - job kinds: registered by name, period and `canRun`, their code imported on their first
 *   run (lib/jobs/app_jobs.ts); the first job pass starts after the first response;
 * - every such loader imports by a URL computed at run time (lib/import_on_use.ts): Deno
 *   builds a module graph before this module's first line runs and follows literal
 *   `import("…")` calls that have not run, so literal loaders made every start read and
 *   analyse the whole app (~470 modules);
 * - the `openai` package with a model client's first call (lib/llm/openai_module.ts);
 * - `node:zlib` once the first response has been sent (gzip by the built-in
 *   `CompressionStream` until it is in) and `node:crypto` with the first hash
 *   (lib/http/compress.ts, lib/ids.ts): on Deno 2.9 the first `node:` module loads Node
 *   compatibility; the job runner's timer then too (a first timer loads Node's timers);
 * - the home page reads votes through lib/community/voters.ts, not the vote writes;
 * - icons from `components/icons.gen.ts`, not lucide-preact's index (3,700 modules);
 * - the home feed and the root middleware: no Markdown parser (the excerpt is
 *   lib/text/excerpt.ts), no search analysis (the query parser loads with the first query
 *   that has text), no moderation (lib/moderation/queue_size.ts);
 * - no KV scan: start-up reads the Deno-version key and the app secret (a get each, and a
 *   write when the store is new);
 * - of the zod schemas, only the configuration's and the home page's query
 *   (lib/schemas/questions_query.ts, not every community schema; the embedder chooser
 *   takes the stand-in model's name without its request schema);
 * - a new store file gets its 8 KiB pages without SQLite's journal and fsyncs
 *   (lib/kv/open.ts): they cost a first start on a fresh store 13–25 ms of waiting.
 *
 * What the first page needs of the routes — the root's `_app`, `_middleware`, `_404` and
 * `_500`, and the home page — is imported from the top of `main()`, while the
 * configuration, the build info and KV load ({@link FIRST_PAGE_ROUTES}). The configuration
 * is validated by its zod schema without zod's compiled fast path (lib/config.ts).
 *
 * tests/integration/start_graph_test.ts keeps heavy packages, routes, islands and `node:`
 * modules out of this module's static import graph and heavy ones out of what the first
 * `GET /` loads, holds the islands table to the real import graph, and keeps literal
 * `import()`s out of the graph Deno builds for this module.
 *
 * Where the time went, `--cpu-prof` (through the inspector) and `performance.now()` marks
 * with the process's CPU time, Deno 2.9.6, empty store, local mode, exec → first 200 on `/`
 * (bench: `BENCH_ONLY=coldstart deno task bench`). Round 1 took the static graph from 450
 * modules to 105 (lucide-preact's index, openai, the MCP SDK, micromark, @orama… out of it)
 * and `createApp` from ~25 ms to ~3; round 2:
 *
 * | phase (ms since exec) | before | after |
 * | --- | --- | --- |
 * | Deno's module graph built, the static graph loaded and evaluated | ~95–120: the graph Deno builds follows the literal loaders (~470 modules read and analysed, ~30 ms); 114 modules loaded, 27 islands and their modules among them; zod and the config schemas ~20; node:crypto and node:zlib (Node compatibility on 2.9) | ~40–48: 61 modules, no island, no `node:` module; zod and the config schemas ~15 of it |
 * | config and build info | ~10 (zod compiling its fast path for one parse: ~8) | ~5 |
 * | KV open and the app secret | 10–20 | ~30, the first page's ≈50 route modules loading beside it (the build info read and the new store file wait on them too) |
 * | `createApp`, `Deno.serve` listening, the request in | ~8 | ~8–10, no timer set (a process's first timer loads Node's timers on 2.9) |
 * | first `GET /` | 30–70: its ≈55 route modules imported (the vote writes, notifications, posting limits among them), rendered, br | ~15: modules in already, rendered, gzip |
 *
 * Same run, 5 alternating runs each, exec → first 200 min/median/max (ms) on the 2-core
 * machine shared with other work, before = this round's start (35877c8): Deno 2.9.6 bare
 * Hono 26/26/28, before 161/166/446 (6.4×), after 108/110/193 (4.2×); Deno 2.5.0 bare Hono
 * 35/36/42, before 135/145/352 (4.0×), after 106/110/194 (3.1×). Busier later: 2.9.6 bare
 * 30/33/33, before 202/210/531, after 133/144/150 (4.4×); 2.5.0 bare 40/47/55, before
 * 181/188/553, after 139/150/266 (3.2×). The process's CPU time to the first 200 (all
 * threads, /proc schedstat) is the steadier count: 2.9.6 165–183 before, 113–127 after,
 * bare 25–27. Deno 2.5 met the goal; 2.9 was at ~110–145 ms (≤ 150) and 4.1–4.5×, the
 * ratio worse the busier the machine.
 *
 * Round 3 (each module of the first `GET /` imported in turn in a fresh process, deps
 * first, median of 5; `--cpu-prof` of a cold start; a fresh store's steps timed alone):
 *
 * | cost (Deno 2.9.6) | before | after |
 * | --- | --- | --- |
 * | a new store file's page size (SQLite's journal and fsyncs) | 13–25 ms waiting | ~0.4 |
 * | zod schemas the first `/` builds beyond the configuration's | ~7.5: every community schema (4.8), the stand-in's request schema (2.7) | ~1.8: the home page's query and paging |
 * | zod's own modules, the configuration's schema and parse | ~11 + ~8 + ~2 | the same |
 * | hono, preact and its renderer, signals | ~10 | the same |
 * | `Deno.cron` (Deploy discovers it at the top level) | ~1.5 | the same |
 * | ~95 local modules, ≤ 0.6 ms each | ~25 (imported one by one) | the same |
 *
 * Same run, 9 alternating runs, before = 60c70a6's parent (d1a881a), exec → first 200
 * min/median/max ms and the process's CPU time (all threads) at that moment: Deno 2.9.6
 * before 98/126/205, after 94/110/193, bare Hono 23/31/38 (3.5×); busier, CPU time before
 * 112/118/221, after 102/105/214, bare 26/27/29. Deno 2.5.0 CPU time before 116/121/246,
 * after 106/110/220, bare 35/38/39. `BENCH_ONLY=coldstart BENCH_COLDSTART_RUNS=5`: 2.9.6
 * 96/102/174 against bare 24/28/30 (3.6×), 2.5.0 105/116/228 against 37/41/48 (2.8×); with
 * the route-table change (22c03f3) at load ~2.7 on the 2 cores: 2.9.6 113/120/217 against
 * 29/31/43 (3.9×), 2.5.0 122/138/264 against 42/42/51 (3.3×), and once 2.9.6 121/126/188
 * against 26/31/43 (4.06×, missed) with 2.5.0 128/150/232 against 37/51/63 (3.0×, at the
 * 150 ms line). Same-run A/B then, 9 runs, CPU time: before 104/112/214, after 96/104/112,
 * bare 25/26/29. So the goal is met on a quiet machine with ~0.4× to spare and borderline
 * on a busy one (Parley's start is ~4× bare's CPU and suffers more from waiting for a
 * core). What is left is zod
 * (its modules and the configuration's schema, ~20 ms: a configuration on `zod/mini` still
 * loads zod's core, ~12 of it), loading ~110 modules, and the first render; one
 * pre-bundled server file would need the lazy loaders in a form a bundler follows, what
 * lib/import_on_use.ts avoids for Deno's own graph. An existing store (every start but a
 * store's first; on Deno Deploy the platform's KV) never paid the page-size step.
 *
 * @module
 */
import type { Hono } from "hono";
import { createApp } from "./lib/app.ts";
import { ConfigError, loadConfig } from "./lib/config.ts";
import { readBuildInfo } from "./lib/fresh/assets.ts";
import { preloadRoutes } from "./lib/fresh/routes.ts";
import { openKvOrExit } from "./lib/kv/open.ts";
import { appJobs } from "./lib/jobs/app_jobs.ts";
import type { JobRunner } from "./lib/jobs/runner.ts";
import { cronPass, JOBS_CRON } from "./lib/jobs/triggers.ts";
import { closeLiveStreams } from "./lib/http/sse.ts";
import { loadZlib } from "./lib/http/compress.ts";
import { llmFromConfig } from "./lib/llm/from_config.ts";
import { embedderFromConfig } from "./lib/search/embeddings.ts";
import { resolveAppSecret } from "./lib/auth/secret.ts";
import { startServer } from "./lib/serve.ts";
import { handling } from "./lib/http/busy.ts";
import { startLine } from "./lib/start_line.ts";
import type { Services } from "./lib/services.ts";
import manifest from "./manifest.gen.ts";

const root = new URL(".", import.meta.url).pathname.replace(/\/$/, "");

/** Deploy SIGKILLs 5 s after SIGINT: whatever is left by then is cut short here first. */
const SHUTDOWN_BUDGET_MS = 4_500;

// Deno Deploy discovers cron jobs by evaluating this module's top level, before
// `Deno.serve`: the resume pass of the job runner, once a minute (lib/jobs/triggers.ts).
const jobsReady = Promise.withResolvers<JobRunner>();
Deno.cron(JOBS_CRON.name, JOBS_CRON.schedule, () => cronPass(jobsReady.promise));

/** A period override from the environment (tests); undefined keeps the default. */
function envMs(name: string): number | undefined {
  const n = Number(Deno.env.get(name));
  return Number.isFinite(n) && n >= 50 ? n : undefined;
}

/**
 * What the first page needs of the routes — the root's `_app`, `_middleware`, `_404` and
 * `_500`, which every page uses, and the home page, the usual first one — imported while
 * start-up waits on configuration and KV (the start-up budget above).
 */
const FIRST_PAGE_ROUTES = [
  "./routes/_app.tsx",
  "./routes/_middleware.ts",
  "./routes/_404.tsx",
  "./routes/_500.tsx",
  "./routes/index.tsx",
];

async function main(): Promise<void> {
  preloadRoutes(manifest.routes, FIRST_PAGE_ROUTES);
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      Deno.exit(1);
    }
    throw err;
  }
  // main.ts only reads the build (`deno task build` writes it; `deno task start` runs both).
  let build;
  try {
    build = await readBuildInfo(`${root}/.build`);
  } catch (err) {
    console.error(`Build error: ${err instanceof Error ? err.message : err}`);
    Deno.exit(1);
  }
  // KV_PATH, or on Deno Deploy (DENO_DEPLOYMENT_ID) without it the platform's database.
  const kv = await openKvOrExit(config.kvPath); // stops here if a newer Deno wrote the store
  const secret = await resolveAppSecret(kv, config);
  // The stand-in model (local mode) is served by the app itself, built just below.
  const self: { app?: Hono } = {};
  const llm = llmFromConfig(config, { appFetch: () => self.app!.fetch });
  const embedder = embedderFromConfig(config, { appFetch: () => self.app!.fetch });
  const services: Services = {
    kv,
    config,
    secret,
    now: Date.now,
    llm,
    embedder,
    avatarIntervalMs: envMs("AVATAR_INTERVAL_MS"),
  };
  const app = createApp(services, { manifest, build, buildDir: `${root}/.build` });
  self.app = app;
  // Jobs whose instance died are resumed by a pass: from cron (above), from requests
  // (throttled to one a second) and from a timer while this process lives.
  const jobs = appJobs(services);
  jobsReady.resolve(jobs);

  // A request nudges a pass once its response is on its way: a new instance's first pass
  // claims the periodic jobs and imports their code, which must not delay the first answer
  // (the start-up budget above). One timer at a time, not one per request: the pass is
  // throttled to one a second anyway, and a page-cache hit costs ~15 µs. The first sent
  // response also starts the runner's timer and imports node:zlib: on Deno 2.9 a process's
  // first timer loads Node's timers (~5 ms) and its first `node:` module Node compatibility
  // (~20 ms), so neither comes before it — nor a timer set while that response is made.
  let started = false;
  const startAfterFirstResponse = () => {
    if (started) return;
    started = true;
    jobs.startTimer(envMs("JOBS_PASS_INTERVAL_MS"));
    loadZlib().catch((err) => console.error(`node:zlib: ${err}`));
  };
  let nudgeQueued = false;
  const nudgeAfter = () => {
    if (nudgeQueued) return;
    nudgeQueued = true;
    setTimeout(() => {
      nudgeQueued = false;
      startAfterFirstResponse();
      jobs.nudge();
    }, 0);
  };
  const serve: Deno.ServeHandler = async (req, info) => {
    try {
      return await handling(app.fetch(req, info));
    } finally {
      if (started) nudgeAfter();
      else info.completed.then(nudgeAfter, nudgeAfter);
    }
  };
  const server = startServer(serve, {
    port: config.port,
    hostname: config.hostname,
    // Live streams end first (below), so what is left are ordinary requests.
    graceMs: 2_000,
    onListen: (addr) => console.log(startLine(config, addr, llm)),
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = performance.now();
    console.log(`${signal}: finishing in-flight requests…`);
    const deadline = setTimeout(() => {
      console.error(`${signal}: shutdown budget spent; exiting now`);
      Deno.exit(0);
    }, SHUTDOWN_BUDGET_MS);
    // Live streams end now (clients resume elsewhere with Last-Event-ID); running jobs
    // are released, so another instance resumes them at once; then requests finish.
    closeLiveStreams();
    await jobs.shutdown(1_000);
    await server.shutdown();
    kv.close();
    clearTimeout(deadline);
    console.log(`Parley stopped. Shutdown took ${Math.round(performance.now() - started)} ms.`);
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", () => stop("SIGINT"));
  Deno.addSignalListener("SIGTERM", () => stop("SIGTERM"));
  await server.finished;
}

if (import.meta.main) await main();

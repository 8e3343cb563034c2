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
 * - job kinds: registered by name, period and `canRun`, their code imported on their first
 *   run (lib/jobs/app_jobs.ts); the first job pass starts after the first response;
 * - the `openai` package with a model client's first call (lib/llm/openai_module.ts);
 * - icons from `components/icons.gen.ts`, not lucide-preact's index (3,700 modules);
 * - the home feed and the root middleware: no Markdown parser (the excerpt is
 *   lib/text/excerpt.ts), no search analysis (the query parser loads with the first query
 *   that has text), no moderation (lib/moderation/queue_size.ts);
 * - no KV scan: start-up reads the Deno-version key and the app secret (a get each, and a
 * write when the store is new).
 *
 * tests/integration/start_graph_test.ts keeps heavy packages and routes out of this
 * module's static import graph and out of what the first `GET /` loads.
 *
 * Where the time went, `--cpu-prof` and `performance.now()` marks, Deno 2.9.6, empty store,
 * local mode, exec → first 200 on `/` (bench: `BENCH_ONLY=coldstart deno task bench`):
 *
 * | phase (ms since exec) | before | after |
 * | --- | --- | --- |
 * | main.ts's static graph loaded and evaluated | ~400: 450 modules (429 local, 1.9 MB) and the npm packages under them; lucide-preact's index alone ~200, openai ~150, the MCP SDK, micromark, @orama, feedsmith, unhomoglyph | ~95–100: 105 modules (94 local, 470 KB): the islands ~50, zod and the config schemas ~20, node:crypto and node:zlib ~15, hono and preact ~10 |
 * | config and build info | ~10 | 4–17 |
 * | KV open (the Deno-version check) and the app secret | 10–20 | 8–20 (both write once on an empty store) |
 * | `createApp` | 22–26 (≈130 URLPatterns compiled, every job kind's code built) | ~3 |
 * | first `GET /` (br) | 12–24 | ~15, its route's ≈70 modules included (no Markdown, search or icon index) |
 *
 * Same run, min/median/max of 5 alternating runs on a 2-core machine: Deno 2.9.6 bare Hono
 * 31/52/63, before 571/630/1397 (12.1×), after 191/245/359 (4.7×); Deno 2.5.0 bare Hono
 * 43/61/67, before 548/627/1296 (10.3×), after 177/198/471 (3.3×). The bench section's 3
 * runs on the quiet machine: 2.9.6 166/167/286 against bare 27/29/30 (5.8×), 2.5.0
 * 138/145/332 against 35/35/41 (4.2×). What is left is mostly loading modules (about 1 ms
 * each); the next step would be fewer of them (the islands, the home route's graph) or one
 * bundled file.
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
import { llmFromConfig } from "./lib/llm/from_config.ts";
import { embedderFromConfig } from "./lib/search/embeddings.ts";
import { resolveAppSecret } from "./lib/auth/secret.ts";
import { startServer } from "./lib/serve.ts";
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
  jobs.startTimer(envMs("JOBS_PASS_INTERVAL_MS"));
  jobsReady.resolve(jobs);

  // A request nudges a pass once its own response is on its way: a new instance's first
  // pass claims the periodic jobs and imports their code, which must not delay the first
  // answer (the start-up budget above).
  const nudgeAfter = () => setTimeout(() => jobs.nudge(), 0);
  const serve: Deno.ServeHandler = async (req, info) => {
    try {
      return await app.fetch(req, info);
    } finally {
      nudgeAfter();
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

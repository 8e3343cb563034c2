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
 * | phase | before | after |
 * | --- | --- | --- |
 * | static import graph of main.ts | 450 modules (429 local, 1.9 MB) and the npm packages under them | 105 modules (94 local, 470 KB) |
 * | loading and evaluating it | ~400 ms: lucide-preact's index ~200, openai ~150, the MCP SDK, micromark, @orama, feedsmith, unhomoglyph, zod | zod, hono, preact, the islands (small), node:crypto |
 * | config, build info, KV open, secret, model clients | ~25 ms | ~25 ms |
 * | `createApp` | 22–26 ms (≈130 URLPatterns compiled, job kinds built) | a few ms |
 * | first `GET /` | 12–24 ms | + its route's modules (≈70, no Markdown, search or icons index) and node:zlib for br |
 * | CPU of the process until its first 200 (machine under load) | 490–570 ms | 160–220 ms (bare Hono 10–30 ms) |
 *
 * Same-run exec → first 200 (min/median/max ms of 5, alternating, on a shared 2-core machine
 * at load 8–12, so every figure is inflated; the ratio is the comparison): Deno 2.9.6 bare
 * Hono 30/105/211, before 656/1098/1744 (10.5×), after 229/344/633 (3.3×); Deno 2.5.0 bare
 * 37/78/244, before 1147/1780/2511 (22.7×), after 338/534/1066 (6.8×). On a quiet machine
 * the before figure was 436–482 ms against bare Hono's 22–29 ms.
 *
 * @module
 */
import type { Hono } from "hono";
import { createApp } from "./lib/app.ts";
import { ConfigError, loadConfig } from "./lib/config.ts";
import { readBuildInfo } from "./lib/fresh/assets.ts";
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

async function main(): Promise<void> {
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

/**
 * Production entry: configuration → KV → app → `Deno.serve`, with graceful shutdown.
 *
 * @module
 */
import type { Hono } from "hono";
import { createApp } from "./lib/app.ts";
import { ConfigError, loadConfig } from "./lib/config.ts";
import { readBuildInfo } from "./lib/fresh/assets.ts";
import { openKv } from "./lib/kv/open.ts";
import { startAvatarJob } from "./lib/avatar/job.ts";
import { waitForDebates } from "./lib/debates/runner.ts";
import { startDebateResumer } from "./lib/debates/resume.ts";
import { closeEventFollowers } from "./lib/debates/events.ts";
import { llmFromConfig } from "./lib/llm/from_config.ts";
import { resolveAppSecret } from "./lib/auth/secret.ts";
import { startServer } from "./lib/serve.ts";
import type { Services } from "./lib/state.ts";
import manifest from "./manifest.gen.ts";

const root = new URL(".", import.meta.url).pathname.replace(/\/$/, "");

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
  const build = await readBuildInfo(`${root}/.build`);
  const kv = await openKv(config.kvPath);
  const secret = await resolveAppSecret(kv, config);
  // The stand-in model (local mode) is served by the app itself, built just below.
  const self: { app?: Hono } = {};
  const llm = llmFromConfig(config, { appFetch: () => self.app!.fetch });
  const services: Services = { kv, config, secret, now: Date.now, llm };
  const app = createApp(services, { manifest, build, buildDir: `${root}/.build` });
  self.app = app;
  // The AI avatar answers for users who turned it on (one tick at a time across instances).
  const avatarJob = startAvatarJob(services);
  // Debates whose instance died (lease lapsed) are continued here within seconds.
  const resumer = startDebateResumer(services, {
    intervalMs: Number(Deno.env.get("DEBATE_RESUME_INTERVAL_MS") ?? 2_000),
  });

  const server = startServer(app.fetch, {
    port: config.port,
    hostname: config.hostname,
    onClosed: async () => {
      await avatarJob.stop();
      await resumer.stop();
      // Debates whose clients left keep running server-side; let them save first.
      await waitForDebates(15_000);
      kv.close();
    },
    onListen: ({ hostname, port }) => {
      const mode = config.localMode ? "local mode (local sign-in)" : "production";
      const model = llm
        ? (llm.standIn ? "offline stand-in model" : `model ${llm.model}`)
        : "no language model (LLM_API_KEY unset)";
      console.log(
        `Parley listening on http://${hostname}:${port} — ${mode}, ${model}; origin ${config.appOrigin}`,
      );
    },
  });

  const stop = async (signal: string) => {
    console.log(`${signal}: finishing in-flight requests…`);
    // Live debate followers end now (clients resume elsewhere with Last-Event-ID).
    closeEventFollowers();
    await server.shutdown();
    console.log("Parley stopped.");
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", () => stop("SIGINT"));
  Deno.addSignalListener("SIGTERM", () => stop("SIGTERM"));
  await server.finished;
}

if (import.meta.main) await main();

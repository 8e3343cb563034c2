/**
 * Production entry: configuration → KV → app → `Deno.serve`, with graceful shutdown.
 *
 * @module
 */
import type { Hono } from "hono";
import { createApp } from "./lib/app.ts";
import { ConfigError, loadConfig } from "./lib/config.ts";
import { readBuildInfo } from "./lib/fresh/assets.ts";
import { openKvOrExit } from "./lib/kv/open.ts";
import { waitForDebates } from "./lib/debates/runner.ts";
import { startBackgroundWork } from "./lib/jobs/background.ts";
import { closeLiveStreams } from "./lib/http/live.ts";
import { llmFromConfig } from "./lib/llm/from_config.ts";
import { resolveAppSecret } from "./lib/auth/secret.ts";
import { startServer } from "./lib/serve.ts";
import type { Services } from "./lib/state.ts";
import manifest from "./manifest.gen.ts";

const root = new URL(".", import.meta.url).pathname.replace(/\/$/, "");

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
  const services: Services = { kv, config, secret, now: Date.now, llm };
  const app = createApp(services, { manifest, build, buildDir: `${root}/.build` });
  self.app = app;
  // Background work on KV queue messages, registered before serving (Deno Deploy wants
  // the listener at isolate start): the AI avatar tick (30 s) and the resumer of debates
  // whose instance died (2 s) — each once per period across all instances.
  const background = await startBackgroundWork(services, {
    avatarIntervalMs: envMs("AVATAR_INTERVAL_MS"),
    debateResumeIntervalMs: envMs("DEBATE_RESUME_INTERVAL_MS"),
  });

  // Requests also check that no job's schedule died with another instance (throttled).
  const serve: Deno.ServeHandler = (req, info) => {
    background.nudge();
    return app.fetch(req, info);
  };
  const server = startServer(serve, {
    port: config.port,
    hostname: config.hostname,
    onClosed: async () => {
      await background.stop();
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
    closeLiveStreams(); // debate, notification and question streams end; clients reconnect
    await server.shutdown();
    console.log("Parley stopped.");
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", () => stop("SIGINT"));
  Deno.addSignalListener("SIGTERM", () => stop("SIGTERM"));
  await server.finished;
}

if (import.meta.main) await main();

/**
 * Production entry: configuration → KV → app → `Deno.serve`, with graceful shutdown.
 *
 * @module
 */
import { createApp } from "./lib/app.ts";
import { ConfigError, loadConfig } from "./lib/config.ts";
import { readBuildInfo } from "./lib/fresh/assets.ts";
import { openKv } from "./lib/kv/open.ts";
import { resolveAppSecret } from "./lib/secret.ts";
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
  const services: Services = { kv, config, secret, now: Date.now };
  const app = createApp(services, { manifest, build, buildDir: `${root}/.build` });

  const server = startServer(app.fetch, {
    port: config.port,
    hostname: config.hostname,
    onClosed: () => kv.close(),
    onListen: ({ hostname, port }) => {
      const mode = config.localMode ? "local mode (local sign-in, offline model)" : "production";
      console.log(
        `Parley listening on http://${hostname}:${port} — ${mode}; origin ${config.appOrigin}`,
      );
    },
  });

  const stop = async (signal: string) => {
    console.log(`${signal}: finishing in-flight requests…`);
    await server.shutdown();
    console.log("Parley stopped.");
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", () => stop("SIGINT"));
  Deno.addSignalListener("SIGTERM", () => stop("SIGTERM"));
  await server.finished;
}

if (import.meta.main) await main();

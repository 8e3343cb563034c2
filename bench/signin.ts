/**
 * Sign-in benchmark: complete sign-ins per second (login start, provider callback with a
 * real token exchange and profile fetch against fake providers on loopback, the app
 * callback's one-time payload and atomic session write, then a session check), and
 * session checks per second — each next to a bare Hono JSON baseline driven by the same
 * client in the same run.
 *
 * @module
 */
import { Hono } from "hono";
import { serveOnLoopback } from "../tests/helpers/app.ts";
import { startFakeProviders, TEST_SECRET } from "../tests/helpers/oauth.ts";
import { createTestApp } from "../tests/helpers/app.ts";
import { row } from "./harness.ts";

const CLIENT = new URL("./signin_client.ts", import.meta.url).pathname;

interface ClientResult {
  perSec: number;
  total: number;
  failures: number;
  p50: number;
  p99: number;
}

async function drive(mode: string, origin: string, seconds: number, concurrency: number) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLIENT, mode, origin, String(seconds), String(concurrency)],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`sign-in bench client failed (${mode})`);
  return JSON.parse(
    new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!,
  ) as ClientResult;
}

/** Run the sign-in scenarios and print their rows. */
export async function run(): Promise<void> {
  const seconds = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
  const concurrency = Number(Deno.env.get("BENCH_SIGNIN_CONCURRENCY") ?? 8);
  const bare = serveOnLoopback(new Hono().get("/json", (c) => c.json({ ok: true })).fetch);
  const fake = startFakeProviders();
  const dir = await Deno.makeTempDir({ prefix: "parley-bench-signin-" });
  const t = await createTestApp({
    kvPath: `${dir}/bench.kv`,
    env: { APP_SECRET: TEST_SECRET, ...fake.env },
  });
  const app = serveOnLoopback(t.app.fetch);
  // Fake providers record every request; keep memory flat during the run.
  const trim = setInterval(() => fake.requests.splice(0), 500);
  try {
    await drive("json", bare.url, 1, concurrency);
    await drive("signin", app.url, 1, concurrency);
    const baseline = await drive("json", bare.url, seconds, concurrency);
    const signin = await drive("signin", app.url, seconds, concurrency);
    const session = await drive("session", app.url, seconds, concurrency);
    console.log(`\nSign-in (${concurrency} concurrent clients, same client for every row)`);
    console.log(row("bare Hono JSON (baseline)", `${baseline.perSec.toFixed(0)} req/s`, 1));
    console.log(row(
      "complete sign-in (3 app + 2 provider requests)",
      `${signin.perSec.toFixed(0)} /s`,
      signin.perSec / baseline.perSec,
    ));
    console.log(row(
      "GET /api/auth/session (signed in)",
      `${session.perSec.toFixed(0)} req/s`,
      session.perSec / baseline.perSec,
    ));
    console.log(
      `latency p50/p99 ms — baseline ${baseline.p50}/${baseline.p99}, sign-in ${signin.p50}/${signin.p99}, session ${session.p50}/${session.p99}`,
    );
    const failures = baseline.failures + signin.failures + session.failures;
    if (failures > 0) {
      console.error(`${failures} failed sign-ins or requests during the runs`);
      Deno.exitCode = 1;
    }
  } finally {
    clearInterval(trim);
    await app.close();
    await t.close();
    await fake.close();
    await bare.close();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) await run();

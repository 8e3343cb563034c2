/**
 * The Parley side of the debate benchmark, in its own process (so its memory is its
 * own and can be garbage-collected on demand): the app over a temp KV file, its model
 * pointed at the driver's fake model, `users` signed-in users, and a control endpoint.
 *
 * `deno run -A --v8-flags=--expose-gc bench/debate_server.ts <fakeBaseUrl> <users>`
 * prints one JSON line `{url, control, cookies}`; `GET <control>/memory` collects
 * garbage and answers `{heapUsed, rss, running}`; closing stdin stops it.
 */
import { jobRunner } from "../lib/jobs/runner.ts";
import { serveOnLoopback, signInAs } from "../tests/helpers/app.ts";
import { benchApp } from "./harness.ts";

const [fakeBaseUrl, usersArg = "1"] = Deno.args;
const app = await benchApp({
  env: {
    LLM_API_KEY: "bench-key",
    LLM_BASE_URL: fakeBaseUrl,
    LLM_MODEL: "fake-model",
    // The driver's debates stand for many people's, but all come from this machine's one
    // address: lift the per-address stream cap (the process cap still holds), and let as
    // many debates run at once as the driver holds open (one per user).
    STREAMS_PER_IP: "1000000",
    MAX_CONCURRENT_DEBATES: usersArg,
  },
});
const cookies: string[] = [];
for (let i = 0; i < Number(usersArg); i++) cookies.push((await signInAs(app, `User ${i}`)).cookie);
const srv = serveOnLoopback(app.app.fetch);

const gc = (globalThis as { gc?: () => void }).gc;
const control = serveOnLoopback(async () => {
  // Several passes: V8 frees some objects only after their finalizers ran.
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 20));
  }
  const mem = Deno.memoryUsage();
  return Response.json({
    heapUsed: mem.heapUsed,
    rss: mem.rss,
    running: jobRunner(app.kv).running("debate"),
  });
});

console.log(JSON.stringify({ url: srv.url, control: control.url, cookies, gc: Boolean(gc) }));

// Run until the driver closes our stdin.
for await (const _ of Deno.stdin.readable) { /* drain */ }
await srv.close();
await control.close();
await app.close();

/** Graceful shutdown: in-flight requests finish before KV closes; SIGTERM exits cleanly. */
import assert from "node:assert/strict";
import { startServer } from "@/lib/serve.ts";
import { ROOT } from "../helpers/app.ts";
import { testDeno } from "../helpers/processes.ts";

Deno.test("shutdown waits for an in-flight request, then runs onClosed", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  let entered!: () => void;
  const started = new Promise<void>((r) => entered = r);
  const events: string[] = [];
  const server = startServer(async () => {
    entered();
    await gate;
    events.push("response sent");
    return new Response("finished");
  }, { port: 0, hostname: "127.0.0.1", onClosed: () => void events.push("closed") });
  const inFlight = fetch(`http://127.0.0.1:${server.addr.port}/slow`);
  await started;
  const stopping = server.shutdown();
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(events, [], "nothing closes while the request runs");
  release();
  const res = await inFlight;
  assert.equal(await res.text(), "finished");
  await stopping;
  assert.deepEqual(events, ["response sent", "closed"]);
  await server.shutdown(); // idempotent
  await assert.rejects(fetch(`http://127.0.0.1:${server.addr.port}/`));
});

async function readUntil(reader: ReadableStreamDefaultReader<string>, needle: string) {
  let seen = "";
  while (!seen.includes(needle)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before "${needle}": ${seen}`);
    seen += value;
  }
  return seen;
}

Deno.test("the server process stops on SIGTERM with exit 0 and KV closed", async () => {
  const dir = await Deno.makeTempDir();
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  const deno = testDeno();
  const child = new Deno.Command(deno.command, {
    args: [...deno.args, "run", "-A", `${ROOT}/main.ts`],
    env: { PORT: String(port), HOSTNAME: "127.0.0.1", KV_PATH: `${dir}/p.kv`, LOCAL_MODE: "on" },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const out = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    await readUntil(out, "listening");
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal((await res.json()).ok, true);
    child.kill("SIGTERM");
    const rest = await readUntil(out, "Parley stopped.");
    assert.match(rest, /SIGTERM: finishing in-flight requests/);
    assert.equal((await child.status).code, 0);
    const kv = await Deno.openKv(`${dir}/p.kv`);
    await kv.set(["after"], 1);
    kv.close();
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* already exited */ }
    await out.cancel().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

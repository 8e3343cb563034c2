/**
 * Live streams are bounded (docs/interface.md#limits): a real `main.ts` with
 * `STREAMS_PER_IP=3` and `STREAMS_PER_PROCESS=4`, reached over loopback as IPv4
 * (`::ffff:127.0.0.1`) and IPv6 (`::1`) — two client addresses from one machine.
 */
import assert from "node:assert/strict";
import { freePort } from "../helpers/oauth.ts";
import { collectOutput, localSignIn, spawnMain, waitHealthy } from "../helpers/processes.ts";

/** An open stream: its first frame read, the rest left to come. */
async function openStream(url: string, headers: HeadersInit = {}) {
  const res = await fetch(url, { headers });
  if (res.status !== 200) return { res, close: async () => {} };
  const reader = res.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  assert.match(first, /^retry: \d+/);
  return { res, close: () => reader.cancel() };
}

/** Assert the refusal: 503, `Retry-After`, `{error}` with the given sentence. */
async function assertRefused(res: Response, sentence: RegExp) {
  assert.equal(res.status, 503);
  assert.ok(Number(res.headers.get("retry-after")) > 0, "Retry-After in seconds");
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const body = await res.json();
  assert.deepEqual(Object.keys(body), ["error"]);
  assert.match(body.error, sentence);
}

/** Open a stream, retrying while the server has not yet seen a closed one leave. */
async function openWhenFree(url: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const s = await openStream(url);
    if (s.res.status === 200 || Date.now() > deadline) return s;
    await s.res.body?.cancel();
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("live streams past STREAMS_PER_IP or STREAMS_PER_PROCESS answer 503 + Retry-After; a closed stream frees its slot", async () => {
  const dir = await Deno.makeTempDir();
  const port = freePort();
  const v4 = `http://127.0.0.1:${port}`;
  const v6 = `http://[::1]:${port}`;
  const child = spawnMain({
    PORT: String(port),
    HOSTNAME: "::",
    APP_ORIGIN: v4,
    KV_PATH: `${dir}/kv.sqlite`,
    LOCAL_MODE: "on",
    EXPERT_PANEL_PER_DAY: "0",
    STREAMS_PER_IP: "3",
    STREAMS_PER_PROCESS: "4",
  });
  const output = collectOutput(child);
  const open: { close(): Promise<void> }[] = [];
  try {
    await waitHealthy(v4, 20_000);
    const cookie = (await localSignIn(v4, "provider_a", { account: "a-1001" })).header();
    const created = await fetch(`${v4}/api/questions`, {
      method: "POST",
      headers: { cookie, origin: v4, "content-type": "application/json" },
      body: JSON.stringify({ title: "Are live streams bounded?", description: "", tags: [] }),
    });
    assert.equal(created.status, 201, output());
    const { id } = await created.json();
    const events = (origin: string) => `${origin}/api/questions/${id}/events`;

    // Three anonymous streams from one address: accepted; the fourth is refused.
    for (let i = 0; i < 3; i++) {
      const s = await openStream(events(v4));
      assert.equal(s.res.status, 200);
      open.push(s);
    }
    await assertRefused(
      (await openStream(events(v4))).res,
      /^Too many live streams from your address: at most 3 at once\./,
    );
    // Signed in counts alike: the notification stream from that address is refused too.
    await assertRefused(
      (await openStream(`${v4}/api/notifications/stream`, { cookie })).res,
      /^Too many live streams from your address/,
    );

    // A stream that ends gives its slot back.
    await open.shift()!.close();
    const again = await openWhenFree(events(v4));
    assert.equal(again.res.status, 200, "the closed stream's slot was given back");
    open.push(again);

    // Another address has its own count, under the process's: 3 + 1 = 4, then full.
    const other = await openStream(events(v6));
    assert.equal(other.res.status, 200);
    open.push(other);
    await assertRefused(
      (await openStream(events(v6))).res,
      /^Parley is busy: this server holds its most live streams \(4\)\./,
    );
    await assertRefused(
      (await openStream(`${v6}/api/notifications/stream`, { cookie })).res,
      /^Parley is busy/,
    );

    // All closed: the whole budget is free again, to the last slot.
    for (const s of open.splice(0)) await s.close();
    for (let i = 0; i < 3; i++) {
      const s = await openWhenFree(events(v4));
      assert.equal(s.res.status, 200);
      open.push(s);
    }
    const last = await openWhenFree(events(v6));
    assert.equal(last.res.status, 200);
    open.push(last);
  } finally {
    for (const s of open) await s.close().catch(() => {});
    child.kill("SIGTERM");
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});

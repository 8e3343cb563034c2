/**
 * A failing store through the real app, with the failure injected (a wrapper around a
 * real KV whose writes or reads throw the errors SQLite gives): a read-only store, a full
 * disk and a damaged file answer 503 with their sentence and `Retry-After` on REST, agent,
 * page and MCP routes — never 500 — and `/healthz` says what failed. The same failures on
 * a real full disk and real files are in storage_failure_test.ts.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { agentCall, agentKey, ask, member, postAs } from "../helpers/community.ts";

const READ_ONLY =
  "Parley cannot save changes right now: its storage is read-only. Please retry later.";
const FULL = "Parley cannot save changes right now: its storage is full. Please retry later.";
const DAMAGED =
  "Parley cannot use its storage right now: the store is damaged. Please retry later.";

/** `kv` whose commits and sets/deletes (and, with `reads`, reads) throw `error()`. */
function failingKv(kv: Deno.Kv, error: () => Error, reads = false): Deno.Kv {
  const fail = () => Promise.reject(error());
  const failingIter = () => ({ [Symbol.asyncIterator]: () => ({ next: fail }), cursor: "" });
  return new Proxy(kv, {
    get(target, prop) {
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const wrapped: Deno.AtomicOperation = new Proxy(op, {
            get(o, p) {
              if (p === "commit") return fail;
              const v = Reflect.get(o, p, o);
              // Chained calls return the wrapper, so `.commit()` at the end still fails.
              return typeof v === "function"
                ? (...args: unknown[]) => {
                  const r = v.apply(o, args);
                  return r === o ? wrapped : r;
                }
                : v;
            },
          });
          return wrapped;
        };
      }
      if (prop === "set" || prop === "delete") return fail;
      if (reads && (prop === "get" || prop === "getMany")) return fail;
      if (reads && prop === "list") return failingIter;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Swap the app's store for a failing one (the app reads `services.kv` per request). */
function breakStore(t: TestApp, error: () => Error, reads = false): () => void {
  const real = t.services.kv;
  t.services.kv = failingKv(real, error, reads);
  return () => t.services.kv = real;
}

/** Quiet console.error while `fn` runs (the app logs the failure once); the lines logged. */
async function quietly<T>(fn: () => Promise<T>): Promise<{ result: T; logged: string[] }> {
  const logged: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void logged.push(args.map(String).join(" "));
  try {
    return { result: await fn(), logged };
  } finally {
    console.error = error;
  }
}

async function assert503(res: Response, sentence: string, what: string): Promise<void> {
  const body = await res.text();
  assert.equal(res.status, 503, `${what}: ${body}`);
  assert.equal(res.headers.get("retry-after"), "30", what);
  assert.deepEqual(JSON.parse(body), { error: sentence, retryAfter: 30 }, what);
}

Deno.test("a read-only store: every kind of write answers 503 with the sentence and Retry-After, /healthz says the write failed", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const key = await agentKey(t, ada);
    const qid = await ask(t, ada, { title: "Written before the store turned read-only" });
    breakStore(t, () => new Error("attempt to write a readonly database"));
    const { logged } = await quietly(async () => {
      await assert503(
        await postAs(t, ada, "/api/questions", { title: "Does a read-only store say so?" }),
        READ_ONLY,
        "REST ask",
      );
      await assert503(
        await postAs(t, ada, `/api/questions/${qid}/messages`, { content: "An answer." }),
        READ_ONLY,
        "REST answer",
      );
      await assert503(
        await postAs(t, ada, "/api/debate", {
          topic: "Should cities ban cars downtown?",
          userProfile: { name: "Ada" },
        }),
        READ_ONLY,
        "debate start (whose other failures are a fixed 500)",
      );
      const agent = await agentCall(t, key, "/api/agent/questions", {
        body: { title: "An agent asks a read-only store" },
      });
      assert.equal(agent.status, 503, await agent.clone().text());
      assert.equal((await agent.json()).error, READ_ONLY);

      // MCP: a tool call that writes is a tool error carrying the sentence, or the 503.
      const mcp = await t.request("/mcp", {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "ask_question", arguments: { title: "Asked over MCP, read-only" } },
        }),
      });
      const mcpText = await mcp.text();
      assert.notEqual(mcp.status, 500, mcpText);
      assert.ok(mcpText.includes(READ_ONLY), mcpText);

      const health = await t.request("/healthz");
      assert.equal(health.status, 503);
      assert.equal(health.headers.get("retry-after"), "30");
      const body = await health.json();
      assert.deepEqual(
        { ok: body.ok, kv: body.kv, read: body.read, write: body.write, error: body.error },
        {
          ok: false,
          kv: "unavailable",
          read: "ok",
          write: "failed",
          error: "KV write failed: the store is read-only",
        },
      );
      // Reads still answer.
      assert.equal((await t.request(`/api/questions/${qid}`)).status, 200);
    });
    const requestLines = logged.filter((l) => l.startsWith("A request to KV failed"));
    assert.equal(requestLines.length <= 1, true, `logged once, not per request:\n${logged}`);
  } finally {
    await t.close();
  }
});

Deno.test("a full disk answers a write 503 with its sentence; a damaged store answers reads and pages 503, not 500", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const qid = await ask(t, ada, { title: "Written before the disk filled up" });
    let restore = breakStore(t, () => new TypeError("database or disk is full"));
    await quietly(async () => {
      await assert503(
        await postAs(t, bob, "/api/likes", {
          targetId: qid,
          targetType: "question",
          voteType: "up",
        }),
        FULL,
        "vote on a full disk",
      );
      const health = await (await t.request("/healthz")).json();
      assert.equal(health.error, "KV write failed: the disk is full");
    });
    restore();

    restore = breakStore(t, () => new Error("database disk image is malformed"), true);
    await quietly(async () => {
      await assert503(await t.request(`/api/questions/${qid}`), DAMAGED, "REST read");
      const page = await t.request(`/questions/${qid}`);
      assert.equal(page.status, 503, "a page");
      assert.equal(page.headers.get("retry-after"), "30");
      assert.equal((await page.json()).error, DAMAGED);
      const health = await t.request("/healthz");
      assert.equal(health.status, 503);
      const body = await health.json();
      assert.equal(body.read, "failed");
      assert.equal(body.error, "KV read failed: the store is damaged");
    });
    restore();
    // The real store was never harmed: with it back, the probe's next write works again.
    assert.equal((await t.request(`/api/questions/${qid}`)).status, 200);
  } finally {
    await t.close();
  }
});

/**
 * Scopes on agent keys: chosen when a key is made (`read`, `write`, both by default; a key
 * made before scopes has both), listed with the key, and enforced on every agent REST
 * route — a write without `write` and a read without `read` are 403 with a sentence
 * naming the missing scope — and on `/mcp`, where a tool call the key may not make is
 * refused with 403 and `WWW-Authenticate: Bearer error="insufficient_scope"`.
 */
import assert from "node:assert/strict";
import { keys } from "@/lib/kv/keys.ts";
import type { AgentKeyRecord } from "@/lib/agent/keys.ts";
import { createTestApp, serveAppOnLoopback, type TestApp } from "../helpers/app.ts";
import { agentCall, answer, ask, json, type Member, member, postAs } from "../helpers/community.ts";

async function keyWith(t: TestApp, who: Member, scopes?: string[]): Promise<string> {
  const res = await postAs(t, who, "/api/profile/agent-keys", { name: "scoped", scopes });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { key: string }).key;
}

const WRITE = "This key lacks the write scope";
const READ = "This key lacks the read scope";

Deno.test("agent keys: scopes chosen at creation (both by default), listed, and validated", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const created = await json<{ info: { scopes: string[] } }>(
      postAs(t, ada, "/api/profile/agent-keys", { name: "reader", scopes: ["read"] }),
    );
    assert.deepEqual(created.body.info.scopes, ["read"]);
    const both = await json<{ info: { scopes: string[] } }>(
      postAs(t, ada, "/api/profile/agent-keys", { name: "default" }),
    );
    assert.deepEqual(both.body.info.scopes, ["read", "write"]);
    const ordered = await json<{ info: { scopes: string[] } }>(
      postAs(t, ada, "/api/profile/agent-keys", { scopes: ["write", "read", "write"] }),
    );
    assert.deepEqual(ordered.body.info.scopes, ["read", "write"]);
    for (const scopes of [[], ["admin"], "read", [1]]) {
      const bad = await json<{ error: string }>(
        postAs(t, ada, "/api/profile/agent-keys", { scopes }),
      );
      assert.equal(bad.status, 400, JSON.stringify(scopes));
      assert.match(bad.body.error, /scope/);
    }
    const list = await json<{ keys: { name: string; scopes: string[] }[] }>(
      t.request("/api/profile/agent-keys", { headers: { cookie: ada.cookie } }),
    );
    assert.deepEqual(list.body.keys.map((k) => [k.name, k.scopes]), [
      ["reader", ["read"]],
      ["default", ["read", "write"]],
      ["Agent key", ["read", "write"]],
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("agent REST: a read-only key reads and is refused every write with 403 naming the write scope", async () => {
  const t = await createTestApp();
  try {
    const [ada, bob] = [await member(t, "Ada"), await member(t, "Bob")];
    const qid = await ask(t, bob, { title: "Someone else's question" });
    const mid = await answer(t, bob, qid, "An answer");
    const own = await ask(t, ada, { title: "Ada's own question" });
    const key = await keyWith(t, ada, ["read"]);
    for (const path of ["/api/agent/me", "/api/agent/questions", "/api/agent/notifications"]) {
      const res = await agentCall(t, key, path);
      assert.equal(res.status, 200, path);
      await res.body?.cancel();
    }
    const me = await json<{ key: { scopes: string[] } }>(agentCall(t, key, "/api/agent/me"));
    assert.deepEqual(me.body.key.scopes, ["read"]);
    const writes: [string, string, unknown][] = [
      ["POST", "/api/agent/questions", { title: "Refused" }],
      ["POST", `/api/agent/questions/${qid}/reply`, { content: "Refused" }],
      ["POST", `/api/agent/questions/${qid}/vote`, { voteType: "up" }],
      ["PATCH", `/api/agent/questions/${own}`, { title: "Refused edit" }],
      ["DELETE", `/api/agent/questions/${own}`, undefined],
      ["PATCH", `/api/agent/messages/${mid}`, { content: "Refused" }],
      ["DELETE", `/api/agent/messages/${mid}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await json<{ error: string }>(agentCall(t, key, path, { method, body }));
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.deepEqual(res.body, { error: WRITE }, `${method} ${path}`);
      assert.equal(res.headers.get("x-ratelimit-limit"), "60", "still counted, with headers");
    }
    // Nothing was written.
    const q = await json<{ title: string; upvotes: number; messageCount: number }>(
      t.request(`/api/questions/${qid}`),
    );
    assert.deepEqual([q.body.upvotes, q.body.messageCount], [0, 1]);
    const mine = await json<{ title: string }>(t.request(`/api/questions/${own}`));
    assert.equal(mine.body.title, "Ada's own question");
  } finally {
    await t.close();
  }
});

Deno.test("agent REST: a write-only key writes and is refused reads with 403 naming the read scope", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const key = await keyWith(t, ada, ["write"]);
    for (const path of ["/api/agent/questions", "/api/agent/notifications"]) {
      const res = await json(agentCall(t, key, path));
      assert.equal(res.status, 403, path);
      assert.deepEqual(res.body, { error: READ });
    }
    const asked = await agentCall(t, key, "/api/agent/questions", {
      body: { title: "Write only" },
    });
    assert.equal(asked.status, 201);
    await asked.body?.cancel();
    assert.equal((await json(agentCall(t, key, "/api/agent/me"))).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("agent keys made before scopes keep both", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const key = await keyWith(t, ada);
    // Strip the scopes from the stored records, as a key written before them looks.
    for await (const e of t.kv.list<AgentKeyRecord>({ prefix: ["agent_keys"] })) {
      const { scopes: _scopes, ...old } = e.value;
      await t.kv.set(e.key, old);
      await t.kv.set(keys.agentKeyByUser(ada.id, old.id), old);
    }
    const list = await json<{ keys: { scopes: string[] }[] }>(
      t.request("/api/profile/agent-keys", { headers: { cookie: ada.cookie } }),
    );
    assert.deepEqual(list.body.keys[0].scopes, ["read", "write"]);
    const asked = await agentCall(t, key, "/api/agent/questions", { body: { title: "Old key" } });
    assert.equal(asked.status, 201);
    await asked.body?.cancel();
  } finally {
    await t.close();
  }
});

function rpc(url: string, key: string, body: unknown): Promise<Response> {
  return fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify(body),
  });
}

Deno.test("mcp: a read-only key lists and calls read tools; a write tool is refused with 403 and an insufficient_scope challenge", async () => {
  const t = await createTestApp();
  const srv = serveAppOnLoopback(t);
  try {
    const ada = await member(t, "Ada");
    const key = await keyWith(t, ada, ["read"]);
    const list = await rpc(srv.url, key, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    assert.equal(list.status, 200);
    await list.body?.cancel();
    const search = await rpc(srv.url, key, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "search_questions", arguments: {} },
    });
    assert.equal(search.status, 200);
    const found = await search.json() as { result: { isError?: boolean } };
    assert.ok(!found.result.isError);
    const refused = await rpc(srv.url, key, {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "ask_question", arguments: { title: "Refused over MCP" } },
    });
    assert.equal(refused.status, 403);
    assert.deepEqual(await refused.json(), { error: WRITE });
    assert.equal(
      refused.headers.get("www-authenticate"),
      `Bearer error="insufficient_scope", scope="read write", resource_metadata="${t.services.config.appOrigin}/.well-known/oauth-protected-resource", error_description="${WRITE}"`,
    );
    assert.equal(refused.headers.get("x-ratelimit-limit"), "60");
    const titles = await json<{ questions: { title: string }[] }>(t.request("/api/questions"));
    assert.deepEqual(titles.body.questions.map((q) => q.title), []);
    // A write-only key may not call a read tool.
    const writer = await keyWith(t, ada, ["write"]);
    const read = await rpc(srv.url, writer, {
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "get_question", arguments: { id: "q-none" } },
    });
    assert.equal(read.status, 403);
    assert.deepEqual(await read.json(), { error: READ });
  } finally {
    await srv.close();
    await t.close();
  }
});

Deno.test("agent REST: every agent operation's OpenAPI scope is the one the server asks for", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const onlyKey = {
      read: await keyWith(t, ada, ["read"]),
      write: await keyWith(t, ada, ["write"]),
    };
    const doc = await json<{
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    }>(t.request("/api/openapi.json"));
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.body.paths)) {
      if (!path.startsWith("/api/agent/") || path === "/api/agent/me") continue;
      for (const [method, op] of Object.entries(ops)) {
        // Session-only operations (participation) take no key at all.
        if (!op.security?.some((s) => s.agentKey)) continue;
        const scope = op.security?.find((s) => s.oauth)?.oauth[0];
        const where = `${method.toUpperCase()} ${path}`;
        assert.ok(scope === "read" || scope === "write", `${where} names a scope`);
        // A key with only the other scope is refused, before anything else is looked at.
        const other = scope === "read" ? onlyKey.write : onlyKey.read;
        const url = path.replaceAll(/\{[^}]+\}/g, "q-none") +
          (path.endsWith("similar") ? "?title=x" : "");
        const res = await json<{ error: string }>(
          agentCall(t, other, url, {
            method: method.toUpperCase(),
            body: method === "get" || method === "delete" ? undefined : {},
          }),
        );
        assert.equal(res.status, 403, where);
        assert.deepEqual(res.body, { error: scope === "read" ? READ : WRITE }, where);
        checked++;
      }
    }
    assert.ok(checked >= 8, `${checked} operations`);
  } finally {
    await t.close();
  }
});

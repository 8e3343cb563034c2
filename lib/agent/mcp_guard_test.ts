import assert from "node:assert/strict";
import { parseConfig } from "../config.ts";
import { batchRefusal, foreignRequestRefusal, mcpHostPolicy } from "./mcp_guard.ts";

const local = mcpHostPolicy(parseConfig({ PORT: "8123", KV_PATH: ":memory:" }));
const production = mcpHostPolicy(parseConfig({
  APP_ORIGIN: "https://parley.example",
  LOCAL_MODE: "off",
  APP_SECRET: "x".repeat(32),
  KV_PATH: ":memory:",
}));

function req(host: string | null, origin?: string): Request {
  const headers = new Headers();
  if (host !== null) headers.set("host", host);
  if (origin !== undefined) headers.set("origin", origin);
  return new Request("http://127.0.0.1:8123/mcp", { method: "POST", headers });
}

Deno.test("mcpHostPolicy: local mode allows the loopback names on PORT and APP_ORIGIN's port", () => {
  assert.deepEqual([...local.hosts].sort(), [
    "127.0.0.1:8123",
    "[::1]:8123",
    "localhost:8123",
  ]);
  assert.deepEqual([...production.hosts], ["parley.example"]);
  assert.deepEqual([...production.origins], ["https://parley.example"]);
});

Deno.test("foreignRequestRefusal: Host and Origin are compared as parsed authorities", () => {
  assert.equal(foreignRequestRefusal(req("LocalHost:8123"), local), null);
  assert.equal(foreignRequestRefusal(req("[::1]:8123", "http://[::1]:8123"), local), null);
  assert.equal(foreignRequestRefusal(req("parley.example:443"), production), null);
  assert.equal(
    foreignRequestRefusal(req("parley.example", "https://parley.example"), production),
    null,
  );
  for (
    const [r, policy] of [
      [req("evil.example"), local],
      [req("localhost:8124"), local],
      [req("localhost:8123", "http://evil.example"), local],
      [req("localhost:8123", "null"), local],
      [req("localhost:8123", "not a url"), local],
      [req("user@localhost:8123"), local],
      [req("localhost:8123/path"), local],
      [req("127.0.0.1:8123"), production],
      [req("parley.example", "http://parley.example"), production],
    ] as const
  ) {
    assert.equal(foreignRequestRefusal(r, policy)?.status, 403, `${r.headers.get("host")}`);
  }
});

Deno.test("batchRefusal: arrays only", async () => {
  const refused = batchRefusal([]);
  assert.equal(refused?.status, 400);
  assert.equal((await refused!.json()).error.code, -32600);
  assert.equal(batchRefusal({ jsonrpc: "2.0" }), null);
  assert.equal(batchRefusal(undefined), null);
});

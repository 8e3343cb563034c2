/**
 * `/mcp`'s front door (lib/agent/mcp_guard.ts), through raw HTTP/1.1 on a loopback socket
 * so the `Host` header is the one a browser under DNS rebinding would send (`fetch`
 * always writes the URL's own): a foreign `Host` or `Origin` is refused with a 403
 * JSON-RPC error before the key is looked at; no `Origin` (a non-browser client) and the
 * loopback names on the configured port are served; a JSON-RPC batch is refused 400.
 */
import assert from "node:assert/strict";
import { createTestApp, serveAppOnLoopback, type TestApp } from "../helpers/app.ts";
import { agentKey, member } from "../helpers/community.ts";

interface RawAnswer {
  status: number;
  headers: Headers;
  body: string;
}

/** One HTTP/1.1 request written by hand to 127.0.0.1:`port`, and its answer. */
async function rawRequest(
  port: number,
  { method = "POST", path = "/mcp", headers, body = "" }: {
    method?: string;
    path?: string;
    headers: Record<string, string>;
    body?: string;
  },
): Promise<RawAnswer> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const bytes = new TextEncoder().encode(body);
  const head = [
    `${method} ${path} HTTP/1.1`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    `content-length: ${bytes.length}`,
    "connection: close",
    "",
    "",
  ].join("\r\n");
  await conn.write(new TextEncoder().encode(head));
  if (bytes.length) await conn.write(bytes);
  const raw = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
  const split = raw.indexOf("\r\n\r\n");
  const [statusLine, ...lines] = raw.slice(0, split).split("\r\n");
  const out = new Headers();
  for (const line of lines) {
    const at = line.indexOf(":");
    out.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  let rest = raw.slice(split + 4);
  if (out.get("transfer-encoding") === "chunked") {
    let text = "";
    while (rest.length) {
      const eol = rest.indexOf("\r\n");
      const size = parseInt(rest.slice(0, eol), 16);
      if (!size) break;
      text += rest.slice(eol + 2, eol + 2 + size);
      rest = rest.slice(eol + 2 + size + 2);
    }
    rest = text;
  }
  return { status: Number(statusLine.split(" ")[1]), headers: out, body: rest };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "guard-test", version: "1.0.0" },
  },
});

function mcpHeaders(host: string, key: string | null, extra: Record<string, string> = {}) {
  return {
    host,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(key ? { authorization: `Bearer ${key}` } : {}),
    ...extra,
  };
}

async function withServer(
  fn: (ctx: { t: TestApp; port: number; key: string }) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  const t = await createTestApp({ env });
  const srv = serveAppOnLoopback(t);
  try {
    const key = await agentKey(t, await member(t, "Ada"));
    await fn({ t, port: srv.port, key });
  } finally {
    await srv.close();
    await t.close();
  }
}

Deno.test("mcp guard: a foreign Host or Origin is refused with a 403 JSON-RPC error, key or not", async () => {
  await withServer(async ({ port, key }) => {
    for (
      const headers of [
        mcpHeaders("evil.example.com", key, { origin: "http://evil.example.com" }),
        mcpHeaders("evil.example.com", key),
        mcpHeaders(`evil.example.com:${port}`, null),
        mcpHeaders(`127.0.0.1:${port}`, key, { origin: "http://evil.example.com" }),
        mcpHeaders(`127.0.0.1:${port}`, key, { origin: "null" }),
        // The right names on another port are another server's.
        mcpHeaders(`127.0.0.1:${port + 1}`, key),
        mcpHeaders(`127.0.0.1:${port}`, key, { origin: `http://localhost:${port + 1}` }),
      ]
    ) {
      const res = await rawRequest(port, { headers, body: INITIALIZE });
      const where = JSON.stringify(headers);
      assert.equal(res.status, 403, where);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/, where);
      const body = JSON.parse(res.body);
      assert.equal(body.jsonrpc, "2.0", where);
      assert.equal(body.id, null, where);
      assert.equal(body.error.code, -32000, where);
      assert.match(body.error.message, /^Forbidden/, where);
      // Refused before the key check: no rate-limit headers, no 401 challenge.
      assert.equal(res.headers.get("x-ratelimit-limit"), null, where);
      assert.equal(res.headers.get("www-authenticate"), null, where);
    }
  });
});

Deno.test("mcp guard: loopback names on the configured port are served, with or without Origin", async () => {
  await withServer(async ({ t, port, key }) => {
    for (const name of ["127.0.0.1", "localhost", "[::1]", "LOCALHOST"]) {
      for (const origin of [null, `http://${name.toLowerCase()}:${port}`]) {
        const headers = mcpHeaders(`${name}:${port}`, key, origin ? { origin } : {});
        const res = await rawRequest(port, { headers, body: INITIALIZE });
        assert.equal(res.status, 200, `${JSON.stringify(headers)}: ${res.body}`);
        assert.equal(JSON.parse(res.body).result.serverInfo.name, "parley");
      }
    }
    // APP_ORIGIN itself (http://localhost:8000 here) is always allowed.
    const app = new URL(t.services.config.appOrigin);
    const res = await rawRequest(port, {
      headers: mcpHeaders(app.host, key, { origin: app.origin }),
      body: INITIALIZE,
    });
    assert.equal(res.status, 200, res.body);
  });
});

Deno.test("mcp guard: outside local mode only APP_ORIGIN's host is served, loopback names are not", async () => {
  await withServer(async ({ port, key }) => {
    const ok = await rawRequest(port, {
      headers: mcpHeaders("parley.example", key, { origin: "https://parley.example" }),
      body: INITIALIZE,
    });
    assert.equal(ok.status, 200, ok.body);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "parley.example:8443"]) {
      const res = await rawRequest(port, { headers: mcpHeaders(host, key), body: INITIALIZE });
      assert.equal(res.status, 403, host);
    }
    const foreignOrigin = await rawRequest(port, {
      headers: mcpHeaders("parley.example", key, { origin: "http://parley.example" }),
      body: INITIALIZE,
    });
    assert.equal(foreignOrigin.status, 403, "http is not the https origin");
  }, {
    APP_ORIGIN: "https://parley.example",
    LOCAL_MODE: "off",
    APP_SECRET: "guard-test-secret-guard-test-secret-0123",
  });
});

Deno.test("mcp guard: a JSON-RPC batch is refused with 400 'batching not supported'", async () => {
  await withServer(async ({ port, key }) => {
    const host = `127.0.0.1:${port}`;
    for (
      const batch of [
        [{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", id: 2, method: "ping" }],
        [JSON.parse(INITIALIZE)],
        [{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_questions" } }],
        [],
      ]
    ) {
      const res = await rawRequest(port, {
        headers: mcpHeaders(host, key),
        body: JSON.stringify(batch),
      });
      assert.equal(res.status, 400, JSON.stringify(batch));
      assert.deepEqual(JSON.parse(res.body), {
        jsonrpc: "2.0",
        error: { code: -32600, message: "Invalid Request: batching not supported" },
        id: null,
      });
    }
    // The same request alone is served.
    const single = await rawRequest(port, { headers: mcpHeaders(host, key), body: INITIALIZE });
    assert.equal(single.status, 200, single.body);
  });
});

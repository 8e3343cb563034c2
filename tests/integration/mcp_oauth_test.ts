/**
 * Connecting an MCP client by URL alone, with the official SDK's own OAuth support
 * (`StreamableHTTPClientTransport` with an `authProvider`) against the app on loopback:
 * the 401 of `/mcp` leads the client to the protected resource metadata, the
 * authorization server metadata and dynamic registration; the client sends PKCE and the
 * resource indicator; a signed-in person approves on the consent page (read over HTTP
 * and sent back as a browser does); the tokens call tools as that person; an expired
 * access token is refreshed (the app's clock moves, nobody sleeps) and the refresh token
 * rotates; revoking the app on the profile makes the token a 401; a `read`-only token is
 * refused a write tool with 403. No token or code reaches a log line.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Scope } from "@/lib/agent/scopes.ts";
import { logSink } from "@/lib/http/log.ts";
import { createTestApp, signInAs, type TestApp } from "../helpers/app.ts";
import { answerConsent, openConsent, type Requester } from "../helpers/mcp_oauth.ts";

/** The app on a loopback port whose APP_ORIGIN is that port, with a clock the test moves. */
async function liveApp() {
  let inner: Deno.ServeHandler = () => new Response("starting", { status: 503 });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => inner(req, info),
  );
  const origin = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  const clock = { now: Date.now() };
  const t = await createTestApp({
    env: { APP_ORIGIN: origin },
    now: () => clock.now,
    logRequests: true,
  });
  inner = (req, info) => t.app.fetch(req, info);
  return {
    t,
    origin,
    clock,
    close: async () => {
      await server.shutdown();
      await t.close();
    },
  };
}

/**
 * An MCP client's OAuth state in memory. `redirectToAuthorization` does what a person
 * does in the browser — opens the consent page with their session and answers it — and
 * keeps the code the app got back; with `approve` off it only records the URL.
 */
class TestProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  approve = true;
  code: string | null = null;
  authorizationUrls: URL[] = [];
  readonly redirectUrl = "http://127.0.0.1:7777/oauth/callback";
  private states = 0;

  constructor(
    private req: Requester,
    private origin: string,
    private cookie: string,
    private scopes: Scope[],
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "SDK test client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    return `state-${++this.states}`;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.client = undefined;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
    if (!this.approve) return;
    const form = await openConsent(this.req, this.cookie, url.toString());
    assert.ok(form.html.includes("SDK test client"), "the consent page names the app");
    assert.ok(form.html.includes(this.redirectUrl), "and where it returns to");
    const back = await answerConsent(this.req, this.origin, this.cookie, form, {
      scopes: this.scopes,
    });
    assert.equal(back.origin + back.pathname, this.redirectUrl);
    assert.equal(back.searchParams.get("state"), url.searchParams.get("state"));
    assert.equal(back.searchParams.get("iss"), this.origin);
    this.code = back.searchParams.get("code");
    assert.ok(this.code, back.toString());
  }
}

/** Every request the client makes: method and path. */
function recordingFetch(log: string[]): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    log.push(`${method} ${url.pathname}`);
    return fetch(input, init);
  };
}

/** Connect with the provider: the first attempt asks for consent, then the code is exchanged. */
async function signInAndConnect(
  mcpUrl: URL,
  provider: TestProvider,
  log: string[],
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const first = new StreamableHTTPClientTransport(mcpUrl, {
    authProvider: provider,
    fetch: recordingFetch(log),
  });
  await assert.rejects(
    new Client({ name: "parley-oauth-test", version: "1.0.0" }).connect(first),
    UnauthorizedError,
  );
  assert.ok(provider.code, "the consent answered with a code");
  await first.finishAuth(provider.code);
  const transport = new StreamableHTTPClientTransport(mcpUrl, {
    authProvider: provider,
    fetch: recordingFetch(log),
  });
  const client = new Client({ name: "parley-oauth-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

function capture() {
  const lines: string[] = [];
  const write = logSink.write;
  const methods = ["log", "info", "warn", "error", "debug"] as const;
  const saved = methods.map((m) => console[m]);
  logSink.write = (line) => void lines.push(line);
  for (const m of methods) {
    console[m] = (...args: unknown[]) =>
      void lines.push(args.map((a) => typeof a === "string" ? a : Deno.inspect(a)).join(" "));
  }
  return {
    lines,
    restore() {
      logSink.write = write;
      methods.forEach((m, i) => (console[m] = saved[i]));
    },
  };
}

async function questionTitles(t: TestApp): Promise<string[]> {
  const res = await t.request("/api/questions?sort=new");
  const body = await res.json() as { questions: { title: string }[] };
  return body.questions.map((q) => q.title);
}

Deno.test({
  name:
    "mcp over OAuth with the SDK's client: discovery from the 401, registration, PKCE, consent, tools, refresh, revocation, and a read-only token refused a write",
  async fn() {
    const live = await liveApp();
    const { t, origin, clock } = live;
    const req: Requester = (u, init) => fetch(new URL(u, origin), init);
    const logs = capture();
    const secrets: string[] = [];
    const clients: Client[] = [];
    try {
      const ada = await signInAs(t, "Ada");
      const mcpUrl = new URL(`${origin}/mcp`);
      const provider = new TestProvider(req, origin, ada.cookie, ["read", "write"]);
      const log: string[] = [];
      const { client } = await signInAndConnect(mcpUrl, provider, log);
      clients.push(client);

      // Discovery from the 401 alone: the client was given only the /mcp URL.
      assert.deepEqual(log.slice(0, 4), [
        "POST /mcp",
        "GET /.well-known/oauth-protected-resource",
        "GET /.well-known/oauth-authorization-server",
        "POST /oauth/register",
      ]);
      // finishAuth (discovering again) exchanges the code; then the client connects.
      const exchanged = log.indexOf("POST /oauth/token");
      assert.ok(exchanged > 3, log.join(", "));
      assert.equal(log[exchanged + 1], "POST /mcp");
      assert.match(String(provider.client?.client_id), /^client_/);
      // PKCE S256 and the resource indicator went with the authorization request.
      const asked = provider.authorizationUrls[0];
      assert.equal(asked.origin + asked.pathname, `${origin}/oauth/authorize`);
      assert.equal(asked.searchParams.get("code_challenge_method"), "S256");
      assert.match(asked.searchParams.get("code_challenge") ?? "", /^[A-Za-z0-9_-]{43}$/);
      assert.equal(asked.searchParams.get("resource"), `${origin}/mcp`);
      assert.equal(asked.searchParams.get("scope"), "read write");
      const first = provider.saved!;
      assert.match(first.access_token, /^parley_at_/);
      assert.match(first.refresh_token ?? "", /^parley_rt_/);
      assert.equal(first.scope, "read write");
      assert.equal(first.expires_in, 3600);
      secrets.push(first.access_token, first.refresh_token!, provider.code!);

      // Tool calls act as the person who approved.
      const found = await client.callTool({ name: "search_questions", arguments: {} });
      assert.ok(!found.isError, JSON.stringify(found));
      const asked1 = await client.callTool({
        name: "ask_question",
        arguments: { title: "Asked over OAuth", tags: ["mcp"] },
      });
      assert.ok(!asked1.isError, JSON.stringify(asked1));
      const qid = (asked1.structuredContent as { id: string }).id;
      const q = await (await t.request(`/api/questions/${qid}`)).json() as {
        author: { id: string };
        createdBy: string;
      };
      assert.equal(q.author.id, ada.user.id);
      assert.equal(q.createdBy, "agent");

      // An hour later the access token has expired: the client refreshes by itself and
      // the refresh token rotates.
      clock.now += 61 * 60_000;
      const stale = await fetch(mcpUrl, {
        method: "POST",
        headers: {
          authorization: `Bearer ${first.access_token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      });
      assert.equal(stale.status, 401);
      await stale.body?.cancel();
      const before = log.length;
      const later = await client.callTool({ name: "search_questions", arguments: {} });
      assert.ok(!later.isError, JSON.stringify(later));
      // (The client reads the discovery documents again before it refreshes.)
      assert.deepEqual(log.slice(before).filter((l) => !l.startsWith("GET /.well-known/")), [
        "POST /mcp",
        "POST /oauth/token",
        "POST /mcp",
      ]);
      const second = provider.saved!;
      assert.notEqual(second.access_token, first.access_token);
      assert.notEqual(second.refresh_token, first.refresh_token);
      secrets.push(second.access_token, second.refresh_token!);

      // The person sees the app on their profile and revokes it: the token is a 401 at once.
      const apps = await (await t.request("/api/profile/connected-apps", {
        headers: { cookie: ada.cookie },
      })).json() as { apps: { id: string; clientName: string; scopes: string[] }[] };
      assert.equal(apps.apps.length, 1);
      assert.equal(apps.apps[0].clientName, "SDK test client");
      assert.deepEqual(apps.apps[0].scopes, ["read", "write"]);
      const revoked = await t.request(`/api/profile/connected-apps/${apps.apps[0].id}`, {
        method: "DELETE",
        headers: { cookie: ada.cookie, origin },
      });
      assert.equal(revoked.status, 200);
      const after = await fetch(mcpUrl, {
        method: "POST",
        headers: {
          authorization: `Bearer ${second.access_token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 10, method: "tools/list" }),
      });
      assert.equal(after.status, 401);
      assert.deepEqual(await after.json(), { error: "Invalid or missing API key" });
      assert.equal(
        after.headers.get("www-authenticate"),
        `Bearer realm="parley-agent", resource_metadata="${origin}/.well-known/oauth-protected-resource", error="invalid_token"`,
      );
      // The client's own attempt: its refresh is refused too, so it can only ask the
      // person again (here nobody approves).
      provider.approve = false;
      const asks = provider.authorizationUrls.length;
      await assert.rejects(
        client.callTool({ name: "search_questions", arguments: {} }),
        UnauthorizedError,
      );
      assert.equal(provider.authorizationUrls.length, asks + 1);

      // A second app, approved for read only: it reads, and a write tool is refused with
      // 403 (the client tries to step up once, gets the same answer, and gives up).
      const reader = new TestProvider(req, origin, ada.cookie, ["read"]);
      const readLog: string[] = [];
      const { client: readClient } = await signInAndConnect(mcpUrl, reader, readLog);
      clients.push(readClient);
      assert.equal(reader.saved?.scope, "read");
      secrets.push(reader.saved!.access_token, reader.saved!.refresh_token!, reader.code!);
      const read = await readClient.callTool({ name: "search_questions", arguments: {} });
      assert.ok(!read.isError, JSON.stringify(read));
      await assert.rejects(
        readClient.callTool({ name: "ask_question", arguments: { title: "Not allowed here" } }),
        (err: unknown) =>
          err instanceof StreamableHTTPError && (err as StreamableHTTPError).code === 403,
      );
      assert.ok(!(await questionTitles(t)).includes("Not allowed here"), "nothing was written");
      const refused = await fetch(mcpUrl, {
        method: "POST",
        headers: {
          authorization: `Bearer ${reader.saved!.access_token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 11,
          method: "tools/call",
          params: { name: "reply", arguments: { questionId: qid, content: "No" } },
        }),
      });
      assert.equal(refused.status, 403);
      assert.deepEqual(await refused.json(), { error: "This token lacks the write scope" });
      assert.match(
        refused.headers.get("www-authenticate") ?? "",
        /^Bearer error="insufficient_scope", scope="read write", resource_metadata="/,
      );
    } finally {
      logs.restore();
      for (const c of clients) await c.close().catch(() => {});
      await live.close();
    }
    // No token, refresh token or code in any log line.
    assert.ok(logs.lines.length > 10, "the request log was captured");
    for (const line of logs.lines) {
      for (const s of secrets) assert.ok(!line.includes(s), `a secret in the log: ${line}`);
      assert.doesNotMatch(line, /parley_(at|rt|ac)_/);
    }
  },
});

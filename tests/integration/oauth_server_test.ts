/**
 * Parley's OAuth server for agents through HTTP: the discovery documents, dynamic
 * registration and its validation, the authorization endpoint's checks (unknown app and
 * foreign redirect URIs shown, never redirected to; PKCE plain, a wrong resource and bad
 * scopes sent back as errors with the state), the consent page and its CSRF protection,
 * one-time codes (a reuse revokes what the code granted), refresh rotation with reuse
 * detection, revocation (RFC 7009 and Connected apps), and the token as a credential.
 */
import assert from "node:assert/strict";
import { createTestApp, signInAs, type TestApp } from "../helpers/app.ts";
import {
  answerConsent,
  authorizePath,
  connectApp,
  formPost,
  inProcess,
  openConsent,
  pkce,
  registerApp,
  type Tokens,
} from "../helpers/mcp_oauth.ts";

const ORIGIN = "http://localhost:8000";

async function withApp(
  fn: (t: TestApp, clock: { now: number }) => Promise<void>,
): Promise<void> {
  const clock = { now: Date.now() };
  const t = await createTestApp({ now: () => clock.now });
  try {
    await fn(t, clock);
  } finally {
    await t.close();
  }
}

function bearer(t: TestApp, token: string, path = "/api/agent/me"): Promise<Response> {
  return t.request(path, { headers: { authorization: `Bearer ${token}` } });
}

async function status(res: Response | Promise<Response>): Promise<number> {
  const r = await res;
  await r.body?.cancel();
  return r.status;
}

function register(t: TestApp, body: unknown): Promise<Response> {
  return t.request("/oauth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

Deno.test("discovery: protected resource metadata at the root and /mcp-suffixed, authorization server metadata, CORS-open", async () => {
  await withApp(async (t) => {
    for (
      const path of [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
      ]
    ) {
      const res = await t.request(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get("access-control-allow-origin"), "*");
      assert.deepEqual(await res.json(), {
        resource: `${ORIGIN}/mcp`,
        authorization_servers: [ORIGIN],
        scopes_supported: ["read", "write"],
        bearer_methods_supported: ["header"],
        resource_name: "Parley",
        resource_documentation: `${ORIGIN}/docs/api`,
      });
    }
    const as = await (await t.request("/.well-known/oauth-authorization-server")).json();
    assert.equal(as.issuer, ORIGIN);
    assert.equal(as.authorization_endpoint, `${ORIGIN}/oauth/authorize`);
    assert.equal(as.token_endpoint, `${ORIGIN}/oauth/token`);
    assert.equal(as.registration_endpoint, `${ORIGIN}/oauth/register`);
    assert.equal(as.revocation_endpoint, `${ORIGIN}/oauth/revoke`);
    assert.deepEqual(as.code_challenge_methods_supported, ["S256"]);
    assert.deepEqual(as.token_endpoint_auth_methods_supported, ["none"]);
    assert.deepEqual(as.grant_types_supported, ["authorization_code", "refresh_token"]);
    const preflight = await t.request("/oauth/token", {
      method: "OPTIONS",
      headers: { origin: "https://inspector.example", "access-control-request-method": "POST" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
    assert.match(
      preflight.headers.get("access-control-allow-headers") ?? "",
      /MCP-Protocol-Version/,
    );
  });
});

Deno.test("register: public clients with https or loopback redirect URIs; anything else is a 400 in RFC 7591's shape", async () => {
  await withApp(async (t) => {
    const ok = await register(t, {
      client_name: "Claude Desktop",
      redirect_uris: ["http://127.0.0.1:33418/callback", "https://claude.ai/api/mcp/auth_callback"],
      token_endpoint_auth_method: "none",
      unknown_field: "ignored",
    });
    assert.equal(ok.status, 201);
    assert.equal(ok.headers.get("cache-control"), "no-store");
    const body = await ok.json();
    assert.match(body.client_id, /^client_/);
    assert.equal(body.client_name, "Claude Desktop");
    assert.deepEqual(body.redirect_uris, [
      "http://127.0.0.1:33418/callback",
      "https://claude.ai/api/mcp/auth_callback",
    ]);
    assert.equal(body.token_endpoint_auth_method, "none");
    assert.equal(body.scope, "read write");
    assert.ok(!("client_secret" in body));

    const refused: [unknown, string, RegExp][] = [
      [
        { redirect_uris: ["http://evil.example/cb"] },
        "invalid_redirect_uri",
        /https, or http on a loopback/,
      ],
      [
        { redirect_uris: ["javascript:alert(1)"] },
        "invalid_redirect_uri",
        /https, or http on a loopback/,
      ],
      [{ redirect_uris: ["https://app.example/cb#frag"] }, "invalid_redirect_uri", /fragment/],
      [{ redirect_uris: ["not a url"] }, "invalid_redirect_uri", /not an absolute URL/],
      [{ redirect_uris: [] }, "invalid_redirect_uri", /at least one/],
      [{}, "invalid_redirect_uri", /redirect_uris/],
      [
        {
          redirect_uris: ["https://app.example/cb"],
          token_endpoint_auth_method: "client_secret_basic",
        },
        "invalid_client_metadata",
        /public clients only/,
      ],
      [
        { redirect_uris: ["https://app.example/cb"], grant_types: ["client_credentials"] },
        "invalid_client_metadata",
        /grant_types/,
      ],
      [
        { redirect_uris: ["https://app.example/cb"], scope: "read admin" },
        "invalid_client_metadata",
        /scope/,
      ],
    ];
    for (const [input, code, description] of refused) {
      const res = await register(t, input);
      assert.equal(res.status, 400, JSON.stringify(input));
      const err = await res.json();
      assert.equal(err.error, code, JSON.stringify(input));
      assert.match(err.error_description, description, JSON.stringify(input));
    }
    const notJson = await t.request("/oauth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    assert.equal(notJson.status, 400);
    assert.equal((await notJson.json()).error, "invalid_request");
  });
});

Deno.test("register: limited per client address (429 with Retry-After)", async () => {
  await withApp(async (t) => {
    const valid = { redirect_uris: ["https://app.example/cb"] };
    let limited: Response | null = null;
    for (let i = 0; i < 25 && !limited; i++) {
      const res = await register(t, valid);
      if (res.status === 429) limited = res;
      else assert.equal(await status(res), 201);
    }
    assert.ok(limited, "never limited");
    assert.match(limited.headers.get("retry-after") ?? "", /^\d+$/);
    assert.equal((await limited.json()).error, "Rate limit exceeded");
  });
});

Deno.test("authorize: an unknown app or a redirect URI it did not register is shown to the person, never redirected to", async () => {
  await withApp(async (t) => {
    const { cookie } = await signInAs(t, "Ada");
    const app = await registerApp(inProcess(t));
    const { challenge } = pkce();
    const cases = [
      authorizePath({ ...app, clientId: "client_nope" }, challenge),
      authorizePath({ ...app, redirectUri: "https://evil.example/cb" }, challenge),
      authorizePath(app, challenge, { redirect_uri: null }),
    ];
    for (const path of cases) {
      const res = await t.request(path, { headers: { cookie }, redirect: "manual" });
      assert.equal(res.status, 400, path);
      assert.equal(res.headers.get("location"), null);
      const html = await res.text();
      assert.match(html, /This app cannot connect/);
      assert.ok(!html.includes('href="https://evil.example'), "no link to the foreign address");
      assert.ok(!html.includes('data-testid="consent-form"'), "no consent form");
    }
  });
});

Deno.test("authorize: PKCE plain, a missing challenge, a wrong resource and unknown scopes go back to the app as errors, with the state", async () => {
  await withApp(async (t) => {
    const { cookie } = await signInAs(t, "Ada");
    const app = await registerApp(inProcess(t));
    const { challenge } = pkce();
    const cases: [Record<string, string | null>, string, RegExp][] = [
      [
        { code_challenge_method: "plain", code_challenge: "x".repeat(43) },
        "invalid_request",
        /S256/,
      ],
      [{ code_challenge_method: null }, "invalid_request", /S256/],
      [{ code_challenge: null }, "invalid_request", /code_challenge/],
      [
        { resource: "https://elsewhere.example/mcp" },
        "invalid_target",
        /resource must be http:\/\/localhost:8000\/mcp/,
      ],
      [{ resource: `${ORIGIN}/api` }, "invalid_target", /resource must be/],
      [{ scope: "read admin" }, "invalid_scope", /scope/],
      [{ response_type: "token" }, "unsupported_response_type", /code/],
    ];
    for (const [extra, code, description] of cases) {
      const res = await t.request(authorizePath(app, challenge, extra), {
        headers: { cookie },
        redirect: "manual",
      });
      assert.equal(res.status, 302, JSON.stringify(extra));
      const back = new URL(res.headers.get("location")!);
      assert.equal(back.origin + back.pathname, app.redirectUri);
      assert.equal(back.searchParams.get("error"), code, JSON.stringify(extra));
      assert.match(back.searchParams.get("error_description") ?? "", description);
      assert.equal(back.searchParams.get("state"), "state-123");
      assert.equal(back.searchParams.get("iss"), ORIGIN);
      assert.equal(back.searchParams.get("code"), null);
    }
  });
});

Deno.test("authorize: signed out goes to sign-in and back; signed in sees a consent page naming the app, its redirect URI and the scopes", async () => {
  await withApp(async (t) => {
    const app = await registerApp(inProcess(t), "http://127.0.0.1:9/callback", "Cursor <script>");
    const { challenge } = pkce();
    const path = authorizePath(app, challenge);
    const anon = await t.request(path, { redirect: "manual" });
    assert.equal(anon.status, 302);
    assert.equal(anon.headers.get("location"), `/signin?returnTo=${encodeURIComponent(path)}`);
    const { cookie, user } = await signInAs(t, "Ada");
    const res = await t.request(path, { headers: { cookie } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    // The form may be answered by a redirect to the app: its origin joins form-action.
    assert.match(
      res.headers.get("content-security-policy") ?? "",
      /form-action 'self' http:\/\/127\.0\.0\.1:9(;|$)/,
    );
    assert.equal(res.headers.get("x-parley-form-target"), null);
    const form = await openConsent(inProcess(t), cookie, path);
    assert.ok(form.html.includes("Cursor &lt;script"), "the app's name, escaped");
    assert.ok(!form.html.includes("Cursor <script>"));
    assert.ok(form.html.includes(app.redirectUri));
    assert.ok(form.html.includes(user.name));
    assert.deepEqual(form.offered, ["read", "write"]);
    assert.ok(form.hidden.some(([k, v]) => k === "resource" && v === `${ORIGIN}/mcp`));
    // Only what the app asked for is offered.
    const readOnly = await openConsent(
      inProcess(t),
      cookie,
      authorizePath(app, challenge, { scope: "read" }),
    );
    assert.deepEqual(readOnly.offered, ["read"]);
  });
});

Deno.test("consent: deny sends access_denied with the state; approving nothing is refused; a cross-site form post is refused", async () => {
  await withApp(async (t) => {
    const { cookie } = await signInAs(t, "Ada");
    const req = inProcess(t);
    const app = await registerApp(req);
    const { challenge } = pkce();
    const form = await openConsent(req, cookie, authorizePath(app, challenge));
    const denied = await answerConsent(req, ORIGIN, cookie, form, { decision: "deny" });
    assert.equal(denied.searchParams.get("error"), "access_denied");
    assert.equal(denied.searchParams.get("state"), "state-123");
    assert.equal(denied.searchParams.get("code"), null);

    const nothing = new URLSearchParams(form.hidden);
    nothing.set("decision", "approve");
    const none = await t.request("/oauth/authorize", {
      method: "POST",
      headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: nothing.toString(),
      redirect: "manual",
    });
    assert.equal(none.status, 400);
    assert.match(await none.text(), /Tick at least one permission/);

    const approve = new URLSearchParams(form.hidden);
    approve.set("decision", "approve");
    approve.append("grant_scope", "write");
    const crossSite = await t.request("/oauth/authorize", {
      method: "POST",
      headers: {
        cookie,
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: approve.toString(),
      redirect: "manual",
    });
    assert.equal(crossSite.status, 403);
    assert.equal(crossSite.headers.get("location"), null);
    await crossSite.body?.cancel();
    // A ticked scope the app did not ask for is not granted.
    const narrow = await openConsent(req, cookie, authorizePath(app, challenge, { scope: "read" }));
    const back = await answerConsent(req, ORIGIN, cookie, narrow, { scopes: ["read", "write"] });
    assert.ok(back.searchParams.get("code"));
  });
});

/** Approve an authorization and return the code with its verifier. */
async function codeFor(t: TestApp, cookie: string, scopes?: ("read" | "write")[]) {
  const req = inProcess(t);
  const app = await registerApp(req);
  const { verifier, challenge } = pkce();
  const form = await openConsent(req, cookie, authorizePath(app, challenge));
  const back = await answerConsent(req, ORIGIN, cookie, form, { scopes });
  return { app, verifier, code: back.searchParams.get("code")! };
}

function exchange(
  t: TestApp,
  c: Awaited<ReturnType<typeof codeFor>>,
  extra: Record<string, string> = {},
) {
  return formPost(inProcess(t), "/oauth/token", {
    grant_type: "authorization_code",
    code: c.code,
    redirect_uri: c.app.redirectUri,
    client_id: c.app.clientId,
    code_verifier: c.verifier,
    ...extra,
  });
}

async function oauthError(res: Response | Promise<Response>) {
  const r = await res;
  return { status: r.status, ...(await r.json()) as { error: string; error_description: string } };
}

Deno.test("token: the code with its verifier gives tokens that act as the person; a wrong verifier, another app, another redirect URI, a wrong resource or a late code do not", async () => {
  await withApp(async (t, clock) => {
    const { cookie, user } = await signInAs(t, "Ada");
    const wrongVerifier = await codeFor(t, cookie);
    const bad = await oauthError(exchange(t, wrongVerifier, { code_verifier: pkce().verifier }));
    assert.deepEqual([bad.status, bad.error], [400, "invalid_grant"]);
    assert.match(bad.error_description, /code_verifier/);
    // The failed attempt spent the code.
    assert.equal((await oauthError(exchange(t, wrongVerifier))).error, "invalid_grant");

    const other = await registerApp(inProcess(t));
    const c = await codeFor(t, cookie);
    assert.equal(
      (await oauthError(exchange(t, c, { client_id: other.clientId }))).error,
      "invalid_grant",
    );
    assert.equal(
      (await oauthError(exchange(t, c, { redirect_uri: "http://127.0.0.1:10/callback" }))).error,
      "invalid_grant",
    );
    const late = await codeFor(t, cookie);
    assert.equal(
      (await oauthError(exchange(t, late, { resource: "https://elsewhere.example/mcp" }))).error,
      "invalid_target",
    );
    clock.now += 61_000;
    assert.equal((await oauthError(exchange(t, late))).error, "invalid_grant");
    clock.now -= 61_000;

    const fresh = await codeFor(t, cookie);
    const res = await exchange(t, fresh, { resource: `${ORIGIN}/mcp` });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const tokens = await res.json() as Tokens;
    assert.equal(tokens.token_type, "Bearer");
    assert.equal(tokens.expires_in, 3600);
    assert.equal(tokens.scope, "read write");
    const me = await bearer(t, tokens.access_token);
    assert.equal(me.status, 200);
    const who = await me.json();
    assert.equal(who.userId, user.id);
    assert.match(who.key.id, /^grant_/);
    assert.equal(who.key.name, "Test MCP client");
    assert.deepEqual(who.key.scopes, ["read", "write"]);
    // The access token expires after an hour.
    clock.now += 3_600_000;
    assert.equal(await status(bearer(t, tokens.access_token)), 401);
  });
});

Deno.test("token: a code works once; redeeming it again revokes what it granted", async () => {
  await withApp(async (t) => {
    const { cookie } = await signInAs(t, "Ada");
    const c = await codeFor(t, cookie);
    const tokens = await (await exchange(t, c)).json() as Tokens;
    assert.equal(await status(bearer(t, tokens.access_token)), 200);
    const again = await oauthError(exchange(t, c));
    assert.deepEqual([again.status, again.error], [400, "invalid_grant"]);
    assert.match(again.error_description, /already used/);
    assert.equal(await status(bearer(t, tokens.access_token)), 401);
    const refresh = await oauthError(formPost(inProcess(t), "/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: c.app.clientId,
    }));
    assert.equal(refresh.error, "invalid_grant");
  });
});

Deno.test("refresh: rotates both tokens; the old refresh token is dead, and presenting it again revokes the app's access", async () => {
  await withApp(async (t) => {
    const ada = await signInAs(t, "Ada");
    const req = inProcess(t);
    const { app, tokens } = await connectApp(req, ORIGIN, ada.cookie);
    const refresh = (token: string, extra: Record<string, string> = {}) =>
      formPost(req, "/oauth/token", {
        grant_type: "refresh_token",
        refresh_token: token,
        client_id: app.clientId,
        ...extra,
      });
    const wrongResource = await oauthError(
      refresh(tokens.refresh_token, { resource: `${ORIGIN}/x` }),
    );
    assert.equal(wrongResource.error, "invalid_target");
    const wider = await oauthError(refresh(tokens.refresh_token, { scope: "read admin" }));
    assert.equal(wider.error, "invalid_scope");

    const first = await refresh(tokens.refresh_token);
    assert.equal(first.status, 200);
    const rotated = await first.json() as Tokens;
    assert.notEqual(rotated.refresh_token, tokens.refresh_token);
    assert.notEqual(rotated.access_token, tokens.access_token);
    assert.equal(rotated.scope, "read write");
    // The previous access token is superseded; the new one works.
    assert.equal(await status(bearer(t, tokens.access_token)), 401);
    assert.equal(await status(bearer(t, rotated.access_token)), 200);

    // Reuse of the rotated token: refused, and the whole grant is revoked.
    const reuse = await oauthError(refresh(tokens.refresh_token));
    assert.deepEqual([reuse.status, reuse.error], [400, "invalid_grant"]);
    assert.match(reuse.error_description, /already used/);
    assert.equal(await status(bearer(t, rotated.access_token)), 401);
    assert.equal((await oauthError(refresh(rotated.refresh_token))).error, "invalid_grant");
    const apps = await (await t.request("/api/profile/connected-apps", {
      headers: { cookie: ada.cookie },
    })).json();
    assert.deepEqual(apps, { apps: [] });
  });
});

Deno.test("refresh: a narrower scope narrows only the new access token", async () => {
  await withApp(async (t) => {
    const ada = await signInAs(t, "Ada");
    const req = inProcess(t);
    const { app, tokens } = await connectApp(req, ORIGIN, ada.cookie);
    const res = await formPost(req, "/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: app.clientId,
      scope: "read",
    });
    const narrowed = await res.json() as Tokens;
    assert.equal(narrowed.scope, "read");
    const ask = await t.request("/api/agent/questions", {
      method: "POST",
      headers: {
        authorization: `Bearer ${narrowed.access_token}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ title: "Narrowed" }),
    });
    assert.equal(ask.status, 403);
    assert.deepEqual(await ask.json(), { error: "This token lacks the write scope" });
    const apps = await (await t.request("/api/profile/connected-apps", {
      headers: { cookie: ada.cookie },
    })).json();
    assert.deepEqual(apps.apps[0].scopes, ["read", "write"], "the grant keeps what was approved");
  });
});

Deno.test("token endpoint: errors in RFC 6749's shape", async () => {
  await withApp(async (t) => {
    const req = inProcess(t);
    const app = await registerApp(req);
    const cases: [Record<string, string>, number, string][] = [
      [{ client_id: app.clientId }, 400, "invalid_request"],
      [{ grant_type: "password", client_id: app.clientId }, 400, "unsupported_grant_type"],
      [
        {
          grant_type: "authorization_code",
          client_id: "client_nope",
          code: "x",
          redirect_uri: "x",
          code_verifier: "x",
        },
        401,
        "invalid_client",
      ],
      [{ grant_type: "authorization_code", client_id: app.clientId }, 400, "invalid_request"],
      [
        {
          grant_type: "authorization_code",
          client_id: app.clientId,
          code: "parley_ac_nope",
          redirect_uri: app.redirectUri,
          code_verifier: pkce().verifier,
        },
        400,
        "invalid_grant",
      ],
      [
        { grant_type: "refresh_token", client_id: app.clientId, refresh_token: "nope" },
        400,
        "invalid_grant",
      ],
    ];
    for (const [params, code, error] of cases) {
      const e = await oauthError(formPost(req, "/oauth/token", params));
      assert.deepEqual([e.status, e.error], [code, error], JSON.stringify(params));
      assert.equal(typeof e.error_description, "string");
    }
    const json = await t.request("/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "refresh_token" }),
    });
    assert.equal(json.status, 400);
    assert.equal((await json.json()).error, "invalid_request");
    const repeated = await t.request("/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=refresh_token&grant_type=authorization_code",
    });
    assert.equal((await repeated.json()).error, "invalid_request");
  });
});

Deno.test("revoke (RFC 7009): an access token stops at once, a refresh token disconnects the app, an unknown token is fine, another app's is refused", async () => {
  await withApp(async (t) => {
    const ada = await signInAs(t, "Ada");
    const req = inProcess(t);
    const revoke = (token: string, clientId: string) =>
      formPost(req, "/oauth/revoke", { token, client_id: clientId });
    const a = await connectApp(req, ORIGIN, ada.cookie);
    const b = await connectApp(req, ORIGIN, ada.cookie, { name: "Other app" });
    const wrong = await oauthError(revoke(a.tokens.access_token, b.app.clientId));
    assert.deepEqual([wrong.status, wrong.error], [400, "unauthorized_client"]);
    assert.equal(await status(revoke(a.tokens.access_token, a.app.clientId)), 200);
    assert.equal(await status(bearer(t, a.tokens.access_token)), 401);
    assert.equal(await status(revoke(b.tokens.refresh_token, b.app.clientId)), 200);
    assert.equal(await status(bearer(t, b.tokens.access_token)), 401);
    assert.equal(await status(revoke("parley_rt_unknown", a.app.clientId)), 200);
    assert.equal((await oauthError(revoke("x", "client_nope"))).error, "invalid_client");
    const apps = await (await t.request("/api/profile/connected-apps", {
      headers: { cookie: ada.cookie },
    })).json() as { apps: { clientName: string }[] };
    assert.deepEqual(apps.apps.map((x) => x.clientName), ["Test MCP client"]);
  });
});

Deno.test("connected apps: listed with their scopes, revocable by their person only", async () => {
  await withApp(async (t) => {
    const ada = await signInAs(t, "Ada");
    const bob = await signInAs(t, "Bob");
    const req = inProcess(t);
    const { tokens } = await connectApp(req, ORIGIN, ada.cookie, { scopes: ["read"] });
    assert.equal(await status(bearer(t, tokens.access_token)), 200);
    const list = await (await t.request("/api/profile/connected-apps", {
      headers: { cookie: ada.cookie },
    })).json() as { apps: { id: string; scopes: string[]; lastUsedAt: number | null }[] };
    assert.equal(list.apps.length, 1);
    assert.deepEqual(list.apps[0].scopes, ["read"]);
    assert.equal(typeof list.apps[0].lastUsedAt, "number", "the call above counted");
    const id = list.apps[0].id;
    const del = (cookie: string) =>
      t.request(`/api/profile/connected-apps/${id}`, {
        method: "DELETE",
        headers: { cookie, origin: ORIGIN },
      });
    assert.equal(await status(del(bob.cookie)), 404);
    assert.equal(await status(bearer(t, tokens.access_token)), 200);
    assert.equal(await status(t.request("/api/profile/connected-apps")), 401);
    assert.equal(await status(del(ada.cookie)), 200);
    assert.equal(await status(bearer(t, tokens.access_token)), 401);
    assert.equal(await status(del(ada.cookie)), 404);
    const page = await (await t.request("/profile", { headers: { cookie: ada.cookie } })).text();
    assert.match(page, /id="connected-apps"/);
  });
});

Deno.test("deleting the account revokes every connected app's tokens", async () => {
  await withApp(async (t) => {
    const ada = await signInAs(t, "Ada");
    const { tokens } = await connectApp(inProcess(t), ORIGIN, ada.cookie);
    assert.equal(await status(bearer(t, tokens.access_token)), 200);
    const gone = await t.request("/api/profile/me", {
      method: "DELETE",
      headers: { cookie: ada.cookie, origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ confirm: ada.user.name, content: "keep" }),
    });
    assert.equal(gone.status, 200, await gone.clone().text());
    assert.equal(await status(bearer(t, tokens.access_token)), 401);
    const refresh = await formPost(inProcess(t), "/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: "any",
    });
    assert.notEqual(refresh.status, 200);
  });
});

Deno.test("tokens: participation stays session-only (a token is 401); each connected app has its own rate limit", async () => {
  await withApp(async (t) => {
    const ada = await signInAs(t, "Ada");
    const req = inProcess(t);
    const { tokens } = await connectApp(req, ORIGIN, ada.cookie);
    const participate = await t.request("/api/agent/participate", {
      method: "POST",
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        cookie: ada.cookie,
        origin: ORIGIN,
        "content-type": "application/json",
      },
      body: "{}",
    });
    assert.equal(participate.status, 401);
    await participate.body?.cancel();

    t.services.agentRateLimit = 3;
    const other = await connectApp(req, ORIGIN, ada.cookie, { name: "Second" });
    for (let i = 0; i < 3; i++) assert.equal(await status(bearer(t, tokens.access_token)), 200);
    const limited = await bearer(t, tokens.access_token);
    assert.equal(limited.status, 429);
    assert.equal((await limited.json()).error, "Rate limit exceeded");
    assert.equal(await status(bearer(t, other.tokens.access_token)), 200, "another grant's budget");
  });
});

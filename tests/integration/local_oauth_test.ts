/**
 * Local mode: the local identity providers speak each provider's exact shapes over real
 * HTTP (the app on a real loopback port with APP_ORIGIN matching, so its callbacks fetch
 * the local token and profile endpoints for real). Never mounted outside local mode.
 */
import assert from "node:assert/strict";
import type { ProviderId } from "@/lib/config.ts";
import { localClientId, localClientSecret } from "@/lib/auth/providers.ts";
import { keys } from "@/lib/kv/keys.ts";
import type { User } from "@/lib/auth/users.ts";
import { createTestApp } from "../helpers/app.ts";
import {
  captureConsole,
  CookieJar,
  localModeServer,
  ROUTES,
  startFakeProviders,
  TEST_SECRET,
} from "../helpers/oauth.ts";
import { chooseLocalAccount, step } from "../helpers/processes.ts";

type Server = Awaited<ReturnType<typeof localModeServer>>;

/** Sign in through a local provider, choosing `choice`; returns the jar and final answer. */
async function localSignIn(
  srv: Server,
  provider: ProviderId,
  choice: Record<string, string>,
  jar = new CookieJar(),
) {
  const start = await step(srv.origin, jar, `${ROUTES[provider].login}?returnTo=%2Fprofile`);
  const authorize = start.headers.get("location")!;
  assert.ok(authorize.startsWith(`${srv.origin}/local-oauth/${provider}/authorize?`));
  const decided = await chooseLocalAccount(srv.origin, jar, authorize, choice);
  assert.equal(decided.status, 303);
  const back = decided.headers.get("location")!;
  assert.ok(back.startsWith(`${srv.origin}${ROUTES[provider].callback}?`), back);
  const cb = await step(srv.origin, jar, back);
  const app = cb.headers.get("location")!;
  if (!app.includes("/auth/callback/")) return { jar, final: app };
  const done = await step(srv.origin, jar, app);
  return { jar, final: done.headers.get("location")! };
}

async function me(srv: Server, jar: CookieJar) {
  const res = await step(srv.origin, jar, "/api/auth/session");
  return res.status === 200 ? (await res.json()).user : null;
}

const SEEDED: Record<ProviderId, string> = {
  provider_a: "a-1001",
  provider_b: "2001",
  provider_c: "c-3001",
};

for (const provider of ["provider_a", "provider_b", "provider_c"] as const) {
  Deno.test({
    name: `local ${provider}: pick a seeded account, sign in over real HTTP`,
    sanitizeResources: false,
    async fn() {
      const srv = await localModeServer();
      try {
        const { jar, final } = await localSignIn(srv, provider, { account: SEEDED[provider] });
        assert.equal(final, "/profile");
        const user = await me(srv, jar);
        assert.ok(user, "signed in");
        assert.equal(user.provider, provider);
        assert.ok(user.image.startsWith(`${srv.origin}/local-oauth/avatar/`));
        const stored = (await srv.t.kv.get<User>(keys.user(user.id))).value!;
        if (provider === "provider_b") {
          // Linus keeps his email private: it came from the emails endpoint.
          assert.equal(user.name, "Linus Local");
          assert.equal(stored.email, "linus-local@local.test");
        }
        const avatar = await step(srv.origin, jar, user.image);
        assert.equal(avatar.headers.get("content-type"), "image/svg+xml; charset=utf-8");
        assert.match(await avatar.text(), /<svg[^>]*>.*<\/svg>/);
      } finally {
        await srv.close();
      }
    },
  });
}

Deno.test({
  name: "local: a typed name becomes an account that is offered next time",
  async fn() {
    const srv = await localModeServer();
    try {
      const first = await localSignIn(srv, "provider_c", { name: "  Barbara   Liskov " });
      const user = await me(srv, first.jar);
      assert.equal(user.name, "Barbara Liskov");
      const again = await localSignIn(srv, "provider_c", { name: "barbara liskov" });
      assert.equal((await me(srv, again.jar)).id, user.id);
      const jar = new CookieJar();
      const start = await step(srv.origin, jar, ROUTES.provider_c.login);
      const page = await (await step(srv.origin, jar, start.headers.get("location")!)).text();
      assert.match(page, /Barbara Liskov/);
      assert.match(page, /Local mode/);
      // An empty name is refused on the page, not an error.
      const empty = await chooseLocalAccount(srv.origin, jar, start.headers.get("location")!, {
        name: "   ",
      });
      assert.equal(empty.status, 400);
      assert.match(await empty.text(), /type a name of 1 to 40 characters/);
    } finally {
      await srv.close();
    }
  },
});

Deno.test({
  name: "local: cancelling at the chooser ends at /?error=oauth_error",
  async fn() {
    const srv = await localModeServer();
    try {
      const { final, jar } = await localSignIn(srv, "provider_a", { deny: "1" });
      assert.equal(final, "/?error=oauth_error");
      assert.equal(await me(srv, jar), null);
    } finally {
      await srv.close();
    }
  },
});

Deno.test({
  name: "local: bind a second local provider from the profile page",
  async fn() {
    const srv = await localModeServer();
    try {
      const { jar } = await localSignIn(srv, "provider_a", { account: "a-1002" });
      const start = await step(srv.origin, jar, "/api/auth/bind/start?provider=provider_b");
      const decided = await chooseLocalAccount(srv.origin, jar, start.headers.get("location")!, {
        account: "2002",
      });
      const cb = await step(srv.origin, jar, decided.headers.get("location")!);
      assert.equal(cb.headers.get("location"), "/profile?bind=success&provider=provider_b");
      const list = await (await step(srv.origin, jar, "/api/profile/identities")).json();
      assert.deepEqual(list.identities.map((i: { provider: string }) => i.provider), [
        "provider_a",
        "provider_b",
      ]);
    } finally {
      await srv.close();
    }
  },
});

Deno.test({
  name: "local authorize refuses unknown clients and foreign redirect URIs without redirecting",
  async fn() {
    const srv = await localModeServer();
    try {
      const jar = new CookieJar();
      const good = new URL(
        (await step(srv.origin, jar, ROUTES.provider_a.login)).headers.get("location")!,
      );
      const cases: [string, string][] = [
        ["redirect_uri", "https://evil.example/cb"],
        ["client_id", "someone-else"],
        ["response_type", "token"],
        ["state", ""],
      ];
      for (const [k, v] of cases) {
        const url = new URL(good);
        url.searchParams.set(k, v);
        const res = await step(srv.origin, jar, url.toString());
        assert.equal(res.status, 400, k);
        assert.equal(res.headers.get("location"), null);
        await res.body?.cancel();
      }
    } finally {
      await srv.close();
    }
  },
});

Deno.test({
  name: "local token endpoints: exact shapes, client authentication, one-time codes",
  async fn() {
    const srv = await localModeServer();
    const quiet = captureConsole();
    try {
      const secret = srv.t.services.secret;
      const verifiers = new Map<string, string>();
      const codeFor = async (provider: ProviderId) => {
        const jar = new CookieJar();
        const start = await step(srv.origin, jar, ROUTES[provider].login);
        const decided = await chooseLocalAccount(srv.origin, jar, start.headers.get("location")!, {
          account: SEEDED[provider],
        });
        const code = new URL(decided.headers.get("location")!).searchParams.get("code")!;
        verifiers.set(code, jar.get(`${provider}_oauth_code_verifier`)!);
        return code;
      };
      const redirect = (p: ProviderId) => `${srv.origin}${ROUTES[p].callback}`;

      // provider_a: form + grant_type, {code, data} answers; code ≠ 0 on failure.
      const aCode = await codeFor("provider_a");
      const aForm = (code: string, clientSecret: string) =>
        fetch(`${srv.origin}/local-oauth/provider_a/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "authorization_code",
            code,
            redirect_uri: redirect("provider_a"),
            client_id: localClientId("provider_a"),
            client_secret: clientSecret,
            code_verifier: verifiers.get(code) ?? "",
          }),
        });
      const wrongSecret = await (await aForm(aCode, "guess")).json();
      assert.notEqual(wrongSecret.code, 0);
      const aOk = await (await aForm(aCode, await localClientSecret(secret, "provider_a"))).json();
      assert.equal(aOk.code, 0);
      assert.deepEqual(Object.keys(aOk.data).sort(), [
        "accessToken",
        "expiresIn",
        "refreshToken",
        "scope",
        "tokenType",
      ]);
      const reused = await (await aForm(aCode, await localClientSecret(secret, "provider_a")))
        .json();
      assert.notEqual(reused.code, 0, "a code is redeemed once");
      const info = await (await fetch(`${srv.origin}/local-oauth/provider_a/userinfo`, {
        headers: { authorization: `Bearer ${aOk.data.accessToken}` },
      })).json();
      assert.equal(info.code, 0);
      assert.deepEqual(Object.keys(info.data).sort(), [
        "avatar",
        "bio",
        "email",
        "name",
        "selfIntroduction",
        "userId",
      ]);
      const noToken = await fetch(`${srv.origin}/local-oauth/provider_a/userinfo`);
      assert.equal(noToken.status, 401);
      await noToken.body?.cancel();

      // provider_b: JSON body; JSON answer only when Accept asks for it.
      const bBody = async (code: string) =>
        JSON.stringify({
          client_id: localClientId("provider_b"),
          client_secret: await localClientSecret(secret, "provider_b"),
          code,
          redirect_uri: redirect("provider_b"),
          code_verifier: verifiers.get(code) ?? "",
        });
      const bForm = await fetch(`${srv.origin}/local-oauth/provider_b/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: await bBody(await codeFor("provider_b")),
      });
      assert.match(bForm.headers.get("content-type")!, /x-www-form-urlencoded/);
      assert.match(await bForm.text(), /^access_token=/);
      const bJson = await (await fetch(`${srv.origin}/local-oauth/provider_b/token`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: await bBody(await codeFor("provider_b")),
      })).json();
      assert.deepEqual(Object.keys(bJson).sort(), ["access_token", "scope", "token_type"]);
      const user = await (await fetch(`${srv.origin}/local-oauth/provider_b/user`, {
        headers: { authorization: `Bearer ${bJson.access_token}` },
      })).json();
      assert.equal(user.id, 2001);
      assert.equal(user.email, null);
      const emails = await (await fetch(`${srv.origin}/local-oauth/provider_b/emails`, {
        headers: { authorization: `Bearer ${bJson.access_token}` },
      })).json();
      assert.equal(
        emails.find((e: { primary: boolean }) => e.primary).email,
        "linus-local@local.test",
      );
      // provider_b has no userinfo; a provider_b token is no provider_c token.
      const wrongEndpoint = await fetch(`${srv.origin}/local-oauth/provider_b/userinfo`);
      assert.equal(wrongEndpoint.status, 404);
      await wrongEndpoint.body?.cancel();
      const crossToken = await fetch(`${srv.origin}/local-oauth/provider_c/userinfo`, {
        headers: { authorization: `Bearer ${bJson.access_token}` },
      });
      assert.equal(crossToken.status, 401);
      await crossToken.body?.cancel();

      // provider_c: form with grant_type; 400 invalid_grant on failure.
      const cBad = await fetch(`${srv.origin}/local-oauth/provider_c/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          code: "nope",
          client_id: localClientId("provider_c"),
          client_secret: await localClientSecret(secret, "provider_c"),
          redirect_uri: redirect("provider_c"),
          grant_type: "authorization_code",
        }),
      });
      assert.equal(cBad.status, 400);
      assert.equal((await cBad.json()).error, "invalid_grant");
    } finally {
      quiet.restore();
      await srv.close();
    }
  },
});

Deno.test({
  name: "replaying a used callback URL fails: the local code was redeemed",
  async fn() {
    const srv = await localModeServer();
    const quiet = captureConsole();
    try {
      const jar = new CookieJar();
      const start = await step(srv.origin, jar, ROUTES.provider_c.login);
      const decided = await chooseLocalAccount(srv.origin, jar, start.headers.get("location")!, {
        account: "c-3002",
      });
      const back = decided.headers.get("location")!;
      const saved = new Map(jar.cookies);
      await step(srv.origin, jar, back);
      // Put the flow cookies back, as an attacker holding them would.
      for (const [k, v] of saved) jar.cookies.set(k, v);
      const replay = await step(srv.origin, jar, back);
      assert.equal(replay.headers.get("location"), "/?error=auth_failed");
    } finally {
      quiet.restore();
      await srv.close();
    }
  },
});

Deno.test("local providers are never mounted outside local mode", async () => {
  const off = await createTestApp({ env: { LOCAL_MODE: "off", APP_SECRET: TEST_SECRET } });
  const fake = startFakeProviders();
  const real = await createTestApp({
    env: { APP_SECRET: TEST_SECRET, PROVIDER_C_CLIENT_ID: "x", ...pick(fake.env, "PROVIDER_C") },
  });
  try {
    for (const t of [off, real]) {
      assert.equal(t.services.config.localMode, false);
      for (
        const path of [
          "/local-oauth/provider_a/authorize?client_id=parley-local-provider_a",
          "/local-oauth/provider_b/user",
          "/local-oauth/avatar/a-1001",
        ]
      ) {
        const res = await t.request(path);
        assert.equal(res.status, 404, path);
        await res.body?.cancel();
      }
      const token = await t.request("/local-oauth/provider_c/token", { method: "POST" });
      assert.equal(token.status, 404);
      await token.body?.cancel();
    }
    // With only provider_c configured, the others are not offered and not startable.
    const page = await (await real.request("/signin")).text();
    assert.match(page, /data-provider="provider_c"/);
    assert.doesNotMatch(page, /data-provider="provider_a"/);
    assert.equal((await real.request("/api/auth/login")).status, 404);
    const none = await (await off.request("/signin")).text();
    assert.match(none, /No sign-in provider is configured/);
  } finally {
    await off.close();
    await real.close();
    await fake.close();
  }
});

Deno.test({
  name: "local mode: the sign-in page offers all three providers, labelled local",
  async fn() {
    const srv = await localModeServer();
    try {
      const html = await (await fetch(`${srv.origin}/signin`)).text();
      for (const p of ["provider_a", "provider_b", "provider_c"]) {
        assert.match(html, new RegExp(`data-provider="${p}"`));
      }
      assert.match(html, /data-testid="local-signin-note"/);
      assert.match(html, /\(local\)/);
    } finally {
      await srv.close();
    }
  },
});

function pick(env: Record<string, string>, prefix: string): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith(prefix)));
}

Deno.test({
  name: "local token endpoints verify PKCE: a missing or wrong code_verifier is refused",
  async fn() {
    const srv = await localModeServer();
    const quiet = captureConsole();
    try {
      const secret = srv.t.services.secret;
      for (const provider of ["provider_a", "provider_b", "provider_c"] as const) {
        for (const verifier of [undefined, "x".repeat(43), "right"]) {
          const jar = new CookieJar();
          const start = await step(srv.origin, jar, ROUTES[provider].login);
          const decided = await chooseLocalAccount(
            srv.origin,
            jar,
            start.headers.get("location")!,
            {
              account: SEEDED[provider],
            },
          );
          const code = new URL(decided.headers.get("location")!).searchParams.get("code")!;
          const fields: Record<string, string> = {
            grant_type: "authorization_code",
            code,
            redirect_uri: `${srv.origin}${ROUTES[provider].callback}`,
            client_id: localClientId(provider),
            client_secret: await localClientSecret(secret, provider),
          };
          if (verifier) {
            fields.code_verifier = verifier === "right"
              ? jar.get(`${provider}_oauth_code_verifier`)!
              : verifier;
          }
          const res = await fetch(`${srv.origin}/local-oauth/${provider}/token`, {
            method: "POST",
            headers: provider === "provider_b"
              ? { "content-type": "application/json", accept: "application/json" }
              : { "content-type": "application/x-www-form-urlencoded" },
            body: provider === "provider_b" ? JSON.stringify(fields) : new URLSearchParams(fields),
          });
          const body = await res.json();
          const label = `${provider} ${verifier ?? "missing"}`;
          if (verifier === "right") {
            assert.ok(body.access_token ?? body.data?.accessToken, label);
          } else if (provider === "provider_a") {
            assert.equal(body.code, 40001, label);
            assert.match(body.message, /code_verifier/, label);
          } else {
            assert.match(body.error, /invalid_grant|bad_verification_code/, label);
            assert.match(body.error_description, /code_verifier/, label);
          }
        }
      }
    } finally {
      quiet.restore();
      await srv.close();
    }
  },
});

/**
 * Sign-in with each provider over real HTTP against fake providers on loopback: the
 * login start, the exact outgoing token and profile requests, the payload cookie, the
 * app callback, and a working session.
 */
import { pkceChallenge } from "@/lib/auth/crypto.ts";
import assert from "node:assert/strict";
import type { ProviderId } from "@/lib/config.ts";
import { fromBase64url } from "@/lib/ids.ts";
import { getIdentity, identityTokens } from "@/lib/auth/identities.ts";
import { keys } from "@/lib/kv/keys.ts";
import type { User } from "@/lib/auth/users.ts";
import {
  appCallback,
  appWithFakeProviders,
  callback,
  captureConsole,
  CookieJar,
  FAKE_TOKENS,
  flowCookies,
  ROUTES,
  sessionOf,
  signInThrough,
  startLogin,
  TEST_SECRET,
} from "../helpers/oauth.ts";

const NOW = 1_800_000_000_000;
const ORIGIN = "http://localhost:8000";

const EXPECTED: Record<ProviderId, {
  name: string;
  accountId: string;
  email: string;
  image: string;
  scope: string | null;
  refreshToken: string | null;
  expiresAt: number | null;
}> = {
  provider_a: {
    name: "Ada from A",
    accountId: "a-user-1",
    email: "ada@a.test",
    image: "https://a.test/ada.png",
    scope: null,
    refreshToken: FAKE_TOKENS.provider_a.refresh,
    expiresAt: NOW + 7200 * 1000,
  },
  provider_b: {
    name: "Bee from B",
    accountId: "4242",
    email: "bee@b.test",
    image: "https://b.test/bee.png",
    scope: "read:user user:email",
    refreshToken: null,
    expiresAt: null,
  },
  provider_c: {
    name: "Cee from C",
    accountId: "c-sub-1",
    email: "cee@c.test",
    image: "https://c.test/cee.png",
    scope: "openid profile email",
    refreshToken: FAKE_TOKENS.provider_c.refresh,
    expiresAt: NOW + 3599 * 1000,
  },
};

for (const provider of ["provider_a", "provider_b", "provider_c"] as const) {
  Deno.test(`${provider}: login start sets the four flow cookies and redirects to authorize`, async () => {
    const { t, fake, close } = await appWithFakeProviders();
    try {
      const jar = new CookieJar();
      const { res, location, state } = await startLogin(
        t,
        provider,
        jar,
        "?returnTo=%2Fquestions%2Fq1%3Fx%3D1",
      );
      assert.equal(res.status, 302);
      const letter = provider.slice(-1);
      assert.equal(`${location.origin}${location.pathname}`, `${fake.url}/${letter}/authorize`);
      assert.equal(location.searchParams.get("client_id"), `client-${letter}`);
      assert.equal(
        location.searchParams.get("redirect_uri"),
        `${ORIGIN}${ROUTES[provider].callback}`,
      );
      assert.equal(location.searchParams.get("response_type"), "code");
      assert.ok(state.length >= 32);
      assert.equal(location.searchParams.get("scope"), EXPECTED[provider].scope);
      const set = new Map(jar.cookies);
      assert.equal(set.get(`${provider}_oauth_state`), state);
      assert.equal(set.get(`${provider}_oauth_origin`), "/questions/q1?x=1");
      assert.equal(
        set.get(`${provider}_oauth_redirect_uri`),
        `${ORIGIN}${ROUTES[provider].callback}`,
      );
      assert.equal(set.get("oauth_login_flow"), "login");
      for (const c of res.headers.getSetCookie().filter((l) => !l.includes("Max-Age=0"))) {
        assert.match(c, /HttpOnly/);
        assert.match(c, /SameSite=Lax/);
        assert.match(c, /Max-Age=600/);
      }
    } finally {
      await close();
    }
  });

  Deno.test(`${provider}: happy path — token request shape, payload cookie, session`, async () => {
    const { t, fake, close } = await appWithFakeProviders({ now: () => NOW });
    try {
      const jar = new CookieJar();
      const { state, location } = await startLogin(t, provider, jar, "?returnTo=%2Fask");
      // PKCE: the verifier stays in a flow cookie; the redirect carries its S256 challenge.
      const verifier = jar.get(`${provider}_oauth_code_verifier`) ?? "";
      assert.match(verifier, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(location.searchParams.get("code_challenge"), await pkceChallenge(verifier));
      assert.equal(location.searchParams.get("code_challenge_method"), "S256");
      const api = await callback(t, provider, jar, { code: "the-code", state });
      assert.equal(api.res.status, 302);
      assert.equal(api.location, `${ORIGIN}${ROUTES[provider].app}`);

      // The exact outgoing token request.
      const tokenReq = fake.requests.find((r) => r.provider === provider && r.endpoint === "token");
      assert.ok(tokenReq);
      assert.equal(tokenReq.method, "POST");
      assert.match(tokenReq.headers["accept"], /application\/json/);
      const redirectUri = `${ORIGIN}${ROUTES[provider].callback}`;
      const letter = provider.slice(-1);
      if (provider === "provider_b") {
        assert.match(tokenReq.headers["content-type"], /^application\/json/);
        assert.deepEqual(JSON.parse(tokenReq.body), {
          client_id: "client-b",
          client_secret: "client-secret-b",
          code: "the-code",
          redirect_uri: redirectUri,
          code_verifier: verifier,
        });
      } else {
        assert.match(tokenReq.headers["content-type"], /^application\/x-www-form-urlencoded/);
        assert.deepEqual(Object.fromEntries(new URLSearchParams(tokenReq.body)), {
          grant_type: "authorization_code",
          code: "the-code",
          redirect_uri: redirectUri,
          client_id: `client-${letter}`,
          client_secret: `client-secret-${letter}`,
          code_verifier: verifier,
        });
      }
      // The profile request carries the bearer token.
      const profileReq = fake.requests.find((r) =>
        r.provider === provider && r.endpoint === "profile"
      );
      assert.equal(profileReq?.method, "GET");
      assert.equal(profileReq?.headers["authorization"], `Bearer ${FAKE_TOKENS[provider].access}`);
      // provider_b's email is null: the emails endpoint is asked, with the token.
      const emailsReq = fake.requests.find((r) =>
        r.provider === provider && r.endpoint === "emails"
      );
      if (provider === "provider_b") {
        assert.equal(
          emailsReq?.headers["authorization"],
          `Bearer ${FAKE_TOKENS.provider_b.access}`,
        );
      } else assert.equal(emailsReq, undefined);

      // Five flow cookies deleted; the payload cookie set, HttpOnly, 2 minutes.
      for (const name of flowCookies(provider)) {
        const c = api.cookies.find((x) => x.name === name);
        assert.equal(c?.attributes["max-age"], "0", name);
      }
      const payloadCookie = api.cookies.find((c) => c.name === `${provider}_auth_payload`);
      assert.ok(payloadCookie);
      assert.equal(payloadCookie.attributes["max-age"], "120");
      assert.equal(payloadCookie.attributes["httponly"], true);
      assert.match(payloadCookie.value, /^[A-Za-z0-9_-]+$/, "base64url");
      const payload = JSON.parse(new TextDecoder().decode(fromBase64url(payloadCookie.value)));
      assert.deepEqual(Object.keys(payload).sort(), [
        "accessToken",
        "expiresAt",
        "issuedAt",
        "profile",
        "provider",
        "providerAccountId",
        "refreshToken",
      ]);
      assert.equal(payload.provider, provider);
      assert.equal(payload.providerAccountId, EXPECTED[provider].accountId);
      assert.equal(payload.accessToken, FAKE_TOKENS[provider].access);
      assert.equal(payload.refreshToken, EXPECTED[provider].refreshToken);
      assert.equal(payload.expiresAt, EXPECTED[provider].expiresAt);
      assert.equal(payload.issuedAt, NOW);
      assert.equal(typeof payload.profile, "object");
      if (provider === "provider_b") assert.equal(payload.profile.email, "bee@b.test");

      // The app callback turns it into a session and goes to returnTo.
      const app = await appCallback(t, provider, jar);
      assert.equal(app.res.status, 302);
      assert.equal(app.location, "/ask");
      const payloadGone = app.cookies.find((c) => c.name === `${provider}_auth_payload`);
      assert.equal(payloadGone?.attributes["max-age"], "0");
      const session = app.cookies.find((c) => c.name === "parley_session");
      assert.ok(session?.value);
      assert.equal(session.attributes["httponly"], true);

      const me = await sessionOf(t, jar);
      assert.equal(me.status, 200);
      const body = await me.json();
      assert.equal(body.user.name, EXPECTED[provider].name);
      assert.equal(body.user.image, EXPECTED[provider].image);
      assert.equal(body.user.provider, provider);
      assert.match(body.user.id, /^u_/);
      assert.deepEqual(Object.keys(body.user).sort(), ["id", "image", "name", "provider"]);

      // The user, seeded from the provider, and the identity with sealed tokens.
      const user = (await t.kv.get<User>(keys.user(body.user.id))).value!;
      assert.equal(user.email, EXPECTED[provider].email);
      assert.equal(user.provider, provider);
      if (provider === "provider_a") assert.equal(user.bio, "Bio from provider A");
      const identity = await getIdentity(t.kv, provider, EXPECTED[provider].accountId);
      assert.equal(identity?.canonicalUserId, user.id);
      assert.equal(identity?.expiresAt, EXPECTED[provider].expiresAt);
      assert.notEqual(identity?.accessToken, FAKE_TOKENS[provider].access);
      assert.ok(!JSON.stringify(identity).includes(FAKE_TOKENS[provider].access));
      const plain = await identityTokens(TEST_SECRET, identity!);
      assert.equal(plain.accessToken, FAKE_TOKENS[provider].access);
      assert.equal(plain.refreshToken, EXPECTED[provider].refreshToken);
    } finally {
      await close();
    }
  });
}

Deno.test("a later sign-in reuses the user, refreshes tokens and keeps a customized profile", async () => {
  let now = NOW;
  const { t, fake, close } = await appWithFakeProviders({ now: () => now });
  try {
    const first = await signInThrough(t, "provider_c");
    const userId = (await (await sessionOf(t, first.jar)).json()).user.id;
    // The user customizes their profile.
    await t.kv.set(keys.profile(userId), {
      displayName: "Custom Name",
      avatarUrl: null,
      bio: "mine",
      coverUrl: null,
      provider: "provider_c",
      customized: true,
      createdAt: now,
      updatedAt: now,
    });
    // The provider now reports a new name and a new token.
    now += 60_000;
    const answers = fake.answers;
    (answers.provider_c.token.body as Record<string, unknown>).access_token = "tok-C-second";
    (answers.provider_c.profile.body as Record<string, unknown>).name = "Renamed at C";
    const second = await signInThrough(t, "provider_c");
    const again = await (await sessionOf(t, second.jar)).json();
    assert.equal(again.user.id, userId);
    const identity = await getIdentity(t.kv, "provider_c", "c-sub-1");
    assert.equal((await identityTokens(TEST_SECRET, identity!)).accessToken, "tok-C-second");
    assert.equal(identity?.expiresAt, now + 3599 * 1000);
    assert.equal(identity?.createdAt, NOW);
    const profile = (await t.kv.get<{ displayName: string }>(keys.profile(userId))).value;
    assert.equal(profile?.displayName, "Custom Name");
    const user = (await t.kv.get<User>(keys.user(userId))).value;
    assert.equal(user?.name, "Cee from C");
    // Exactly one user exists.
    let users = 0;
    for await (const _ of t.kv.list({ prefix: ["users"] })) users++;
    assert.equal(users, 1);
  } finally {
    await close();
  }
});

Deno.test("returnTo is same-origin only; unavailable providers answer 404", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    for (const bad of ["https://evil.example/", "//evil.example", "/\\evil.example"]) {
      const jar = new CookieJar();
      await startLogin(t, "provider_a", jar, `?returnTo=${encodeURIComponent(bad)}`);
      assert.equal(jar.get("provider_a_oauth_origin"), "/");
    }
  } finally {
    await close();
  }
  const { t: only, close: closeOnly } = await appWithFakeProviders({
    env: { PROVIDER_B_CLIENT_ID: "", PROVIDER_C_CLIENT_ID: "" },
  });
  try {
    const res = await only.request("/api/auth/login/provider_b");
    assert.equal(res.status, 404);
    assert.match((await res.json()).error, /not available/);
    const page = await (await only.request("/signin")).text();
    assert.match(page, /data-provider="provider_a"/);
    assert.doesNotMatch(page, /data-provider="provider_b"/);
    assert.doesNotMatch(page, /data-provider="provider_c"/);
    assert.doesNotMatch(page, /Local mode/);
  } finally {
    await closeOnly();
  }
});

Deno.test("two app callbacks racing with one payload create one user and one session", async () => {
  const { t, close } = await appWithFakeProviders();
  const quiet = captureConsole();
  try {
    const jar = new CookieJar();
    const { state } = await startLogin(t, "provider_a", jar);
    await callback(t, "provider_a", jar, { code: "c", state });
    const results = await Promise.all(
      [0, 1, 2, 3].map(() => appCallback(t, "provider_a", jar)),
    );
    const ok = results.filter((r) => r.cookies.some((c) => c.name === "parley_session"));
    assert.equal(ok.length, 1);
    assert.equal(results.filter((r) => r.location === "/?error=auth_failed").length, 3);
    let users = 0;
    for await (const _ of t.kv.list({ prefix: ["users"] })) users++;
    assert.equal(users, 1);
    assert.equal(quiet.lines.filter((l) => /refused/.test(l)).length, 3);
  } finally {
    quiet.restore();
    await close();
  }
});

Deno.test("login and callback paths name provider_b and provider_c only; other names 404 as unknown paths do", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const unknown = await t.request("/api/does-not-exist");
    const expected = { status: unknown.status, body: await unknown.json() };
    assert.deepEqual(expected, { status: 404, body: { error: "Not found" } });
    for (const base of ["/api/auth/login", "/api/auth/callback"]) {
      for (const name of ["provider_a", "provider_z", "nope", "__proto__", "PROVIDER_B"]) {
        const res = await t.request(`${base}/${name}`);
        assert.equal(res.status, 404, `${base}/${name}`);
        assert.match(res.headers.get("content-type") ?? "", /application\/json/);
        assert.deepEqual(await res.json(), expected.body, `${base}/${name}`);
      }
    }
    for (const provider of ["provider_b", "provider_c"]) {
      const res = await t.request(`/api/auth/login/${provider}`);
      assert.equal(res.status, 302, provider);
      await res.body?.cancel();
    }
  } finally {
    await close();
  }
});

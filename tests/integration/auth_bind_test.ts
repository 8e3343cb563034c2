/**
 * Binding more provider accounts to one user (docs/interface.md#bind), listing and
 * unbinding them, over real HTTP against fake providers.
 */
import assert from "node:assert/strict";
import type { ProviderId } from "@/lib/config.ts";
import { getIdentity, identityTokens } from "@/lib/auth/identities.ts";
import { keys } from "@/lib/kv/keys.ts";
import type { TestApp } from "../helpers/app.ts";
import {
  callback,
  captureConsole,
  CookieJar,
  FAKE_TOKENS,
  type FakeProviders,
  flowCookies,
  sessionOf,
  signInThrough,
  startLogin,
  TEST_SECRET,
} from "../helpers/oauth.ts";
import { appWithFakeProviders } from "../helpers/oauth.ts";

const NOW = 1_800_000_000_000;
const ORIGIN = "http://localhost:8000";

async function withApp(fn: (t: TestApp, fake: FakeProviders) => Promise<void>) {
  const { t, fake, close } = await appWithFakeProviders({ now: () => NOW });
  const quiet = captureConsole();
  try {
    await fn(t, fake);
  } finally {
    quiet.restore();
    await close();
  }
}

/** Start a bind from the signed-in jar and run the provider's callback. */
async function bind(t: TestApp, jar: CookieJar, provider: ProviderId) {
  const start = await t.request(`/api/auth/bind/start?provider=${provider}`, {
    headers: { cookie: jar.header() },
  });
  assert.equal(start.status, 302);
  jar.take(start);
  assert.equal(jar.get("oauth_login_flow"), "bind");
  const state = new URL(start.headers.get("location")!).searchParams.get("state")!;
  return await callback(t, provider, jar, { code: "bind-code", state });
}

async function identities(t: TestApp, jar: CookieJar) {
  const res = await t.request("/api/profile/identities", { headers: { cookie: jar.header() } });
  assert.equal(res.status, 200);
  return (await res.json()).identities as { provider: string; name: string }[];
}

function assertFlowCookiesDeleted(
  provider: ProviderId,
  cookies: { name: string; attributes: Record<string, unknown> }[],
) {
  for (const name of flowCookies(provider)) {
    assert.equal(cookies.find((c) => c.name === name)?.attributes["max-age"], "0", name);
  }
}

Deno.test("bind success: a second provider is bound to the signed-in user", () =>
  withApp(async (t) => {
    const { jar } = await signInThrough(t, "provider_a");
    const userId = (await (await sessionOf(t, jar)).json()).user.id;
    assert.equal(jar.get("oauth_bind_target_user_id"), undefined);
    const start = await t.request("/api/auth/bind/start?provider=provider_c", {
      headers: { cookie: jar.header() },
    });
    const bindCookie = start.headers.getSetCookie().find((c) =>
      c.startsWith("oauth_bind_target_user_id=")
    );
    assert.match(bindCookie ?? "", new RegExp(`^oauth_bind_target_user_id=${userId};.*HttpOnly`));
    const location = new URL(start.headers.get("location")!);
    assert.equal(
      location.searchParams.get("redirect_uri"),
      `${ORIGIN}/api/auth/callback/provider_c`,
    );
    jar.take(start);
    const { location: done, cookies } = await callback(t, "provider_c", jar, {
      code: "bind-code",
      state: location.searchParams.get("state")!,
    });
    assert.equal(done, "/profile?bind=success&provider=provider_c");
    assertFlowCookiesDeleted("provider_c", cookies);
    assert.ok(!cookies.some((c) => c.name === "provider_c_auth_payload"), "bind sets no payload");

    const identity = await getIdentity(t.kv, "provider_c", "c-sub-1");
    assert.equal(identity?.canonicalUserId, userId);
    assert.equal(identity?.email, "cee@c.test");
    assert.equal(identity?.name, "Cee from C");
    assert.equal(identity?.avatar, "https://c.test/cee.png");
    assert.equal(identity?.expiresAt, NOW + 3599 * 1000);
    const tokens = await identityTokens(TEST_SECRET, identity!);
    assert.deepEqual(tokens, {
      accessToken: FAKE_TOKENS.provider_c.access,
      refreshToken: FAKE_TOKENS.provider_c.refresh,
    });
    assert.deepEqual((await identities(t, jar)).map((i) => i.provider), [
      "provider_a",
      "provider_c",
    ]);

    // The bound account now signs in as the same user.
    const viaC = await signInThrough(t, "provider_c");
    assert.equal((await (await sessionOf(t, viaC.jar)).json()).user.id, userId);

    // The profile page shows the result and both methods.
    const page = await (await t.request("/profile?bind=success&provider=provider_c", {
      headers: { cookie: jar.header() },
    })).text();
    assert.match(page, /Provider C is now bound to your account/);
    assert.match(page, /Bound as Cee from C/);
    assert.match(page, /href="\/api\/auth\/bind\/start\?provider=provider_b"/);
  }));

Deno.test("bind of provider_b keeps no refresh token and no expiry", () =>
  withApp(async (t) => {
    const { jar } = await signInThrough(t, "provider_a");
    const { location } = await bind(t, jar, "provider_b");
    assert.equal(location, "/profile?bind=success&provider=provider_b");
    const identity = await getIdentity(t.kv, "provider_b", "4242");
    assert.equal(identity?.refreshToken, null);
    assert.equal(identity?.expiresAt, null);
    assert.equal(identity?.email, "bee@b.test");
  }));

Deno.test("bind conflict: an account owned by another user is not moved", () =>
  withApp(async (t) => {
    const owner = await signInThrough(t, "provider_b");
    const ownerId = (await (await sessionOf(t, owner.jar)).json()).user.id;
    const other = await signInThrough(t, "provider_a");
    const { location, cookies } = await bind(t, other.jar, "provider_b");
    assert.equal(location, "/profile?bind=failed&reason=conflict&provider=provider_b");
    assertFlowCookiesDeleted("provider_b", cookies);
    assert.equal((await getIdentity(t.kv, "provider_b", "4242"))?.canonicalUserId, ownerId);
    assert.deepEqual((await identities(t, other.jar)).map((i) => i.provider), ["provider_a"]);
    const page = await (await t.request(location, { headers: { cookie: other.jar.header() } }))
      .text();
    assert.match(page, /already signs in to a different Parley user/);
  }));

Deno.test("bind cancelled at the provider: back to /profile with the reason, nothing bound", () =>
  withApp(async (t, fake) => {
    const { jar } = await signInThrough(t, "provider_a");
    const start = await t.request("/api/auth/bind/start?provider=provider_c", {
      headers: { cookie: jar.header() },
    });
    jar.take(start);
    const state = new URL(start.headers.get("location")!).searchParams.get("state")!;
    const before = fake.requests.length;
    const { location, cookies } = await callback(t, "provider_c", jar, {
      error: "access_denied",
      state,
    });
    assert.equal(location, "/profile?bind=failed&reason=cancelled&provider=provider_c");
    assertFlowCookiesDeleted("provider_c", cookies);
    assert.equal(fake.requests.length, before, "no token exchange");
    assert.equal(await getIdentity(t.kv, "provider_c", "c-sub-1"), null);
    const page = await (await t.request(location, { headers: { cookie: jar.header() } })).text();
    assert.match(page, /Binding failed\. It was cancelled/);
    // A login cancelled the same way still lands on the home page's sign-in error.
    const other = new CookieJar();
    const login = await startLogin(t, "provider_c", other);
    const res = await callback(t, "provider_c", other, {
      error: "access_denied",
      state: login.state,
    });
    assert.equal(res.location, "/?error=oauth_error");
  }));

Deno.test("bind no_target: a bind flow without the target cookie", () =>
  withApp(async (t, fake) => {
    // Signed out, straight to the login route with flow=bind: no target is set.
    const jar = new CookieJar();
    const { state } = await startLogin(t, "provider_c", jar, "?flow=bind");
    assert.equal(jar.get("oauth_login_flow"), "bind");
    const { location, cookies } = await callback(t, "provider_c", jar, { code: "c", state });
    assert.equal(location, "/profile?bind=failed&reason=no_target");
    assertFlowCookiesDeleted("provider_c", cookies);
    assert.equal(fake.requests.length, 0, "no token exchange without a target");
    assert.equal(await getIdentity(t.kv, "provider_c", "c-sub-1"), null);
  }));

Deno.test("bind no_target: the target cookie must be the signed-in user", () =>
  withApp(async (t) => {
    const victim = await signInThrough(t, "provider_a");
    const victimId = (await (await sessionOf(t, victim.jar)).json()).user.id;
    // Someone else's browser carries a bind target naming the victim.
    const jar = new CookieJar();
    const { state } = await startLogin(t, "provider_c", jar, "?flow=bind");
    jar.cookies.set("oauth_bind_target_user_id", victimId);
    const { location } = await callback(t, "provider_c", jar, { code: "c", state });
    assert.equal(location, "/profile?bind=failed&reason=no_target");
    assert.equal(await getIdentity(t.kv, "provider_c", "c-sub-1"), null);
  }));

Deno.test("bind start needs a session and a known provider", () =>
  withApp(async (t) => {
    const anon = await t.request("/api/auth/bind/start?provider=provider_b");
    assert.equal(anon.status, 302);
    assert.equal(anon.headers.get("location"), "/signin?returnTo=%2Fprofile");
    const { jar } = await signInThrough(t, "provider_a");
    const bad = await t.request("/api/auth/bind/start?provider=provider_x", {
      headers: { cookie: jar.header() },
    });
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).error, /provider must be/);
  }));

Deno.test("a second account of an already bound provider is refused", () =>
  withApp(async (t, fake) => {
    const { jar } = await signInThrough(t, "provider_a");
    assert.match((await bind(t, jar, "provider_c")).location, /bind=success/);
    (fake.answers.provider_c.profile.body as { sub: string }).sub = "c-other";
    const { location } = await bind(t, jar, "provider_c");
    assert.equal(location, "/profile?bind=failed&reason=already_bound&provider=provider_c");
    assert.equal(await getIdentity(t.kv, "provider_c", "c-other"), null);
  }));

Deno.test("identities: list without tokens or email; unbind, never the last one", () =>
  withApp(async (t) => {
    const { jar } = await signInThrough(t, "provider_a");
    await bind(t, jar, "provider_b");
    const listRes = await t.request("/api/profile/identities", {
      headers: { cookie: jar.header() },
    });
    const text = await listRes.text();
    for (const secret of ["tok-", "@a.test", "@b.test", "accessToken", "refreshToken"]) {
      assert.ok(!text.includes(secret), `list leaks ${secret}`);
    }
    const list = JSON.parse(text).identities;
    assert.deepEqual(Object.keys(list[0]).sort(), [
      "avatar",
      "createdAt",
      "name",
      "provider",
      "providerAccountId",
      "updatedAt",
    ]);

    const write = { cookie: jar.header(), origin: ORIGIN };
    const bad = await t.request("/api/profile/identities?provider=nope", {
      method: "DELETE",
      headers: write,
    });
    assert.equal(bad.status, 400);
    const notBound = await t.request("/api/profile/identities?provider=provider_c", {
      method: "DELETE",
      headers: write,
    });
    assert.equal(notBound.status, 404);
    const ok = await t.request("/api/profile/identities?provider=provider_a", {
      method: "DELETE",
      headers: write,
    });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { ok: true });
    assert.equal(await getIdentity(t.kv, "provider_a", "a-user-1"), null);
    const last = await t.request("/api/profile/identities?provider=provider_b", {
      method: "DELETE",
      headers: write,
    });
    assert.equal(last.status, 409);
    assert.deepEqual(await last.json(), { error: "Cannot unbind your only sign-in method" });
    assert.deepEqual((await identities(t, jar)).map((i) => i.provider), ["provider_b"]);

    // Without JavaScript: the profile page's form.
    const form = await t.request("/api/profile/identities", {
      method: "POST",
      headers: { ...write, "content-type": "application/x-www-form-urlencoded" },
      body: "provider=provider_b",
    });
    assert.equal(form.status, 303);
    assert.equal(
      form.headers.get("location"),
      "/profile?unbind=failed&reason=last&provider=provider_b",
    );

    // Signed out, and cross-site.
    assert.equal((await t.request("/api/profile/identities")).status, 401);
    const cross = await t.request("/api/profile/identities?provider=provider_b", {
      method: "DELETE",
      headers: { cookie: jar.header(), origin: "https://evil.example" },
    });
    assert.equal(cross.status, 403);
  }));

Deno.test("two concurrent unbinds cannot remove both of the last two identities", () =>
  withApp(async (t) => {
    const { jar } = await signInThrough(t, "provider_a");
    await bind(t, jar, "provider_c");
    const write = { cookie: jar.header(), origin: ORIGIN };
    const [a, c] = await Promise.all(
      ["provider_a", "provider_c"].map((p) =>
        t.request(`/api/profile/identities?provider=${p}`, { method: "DELETE", headers: write })
      ),
    );
    assert.deepEqual([a.status, c.status].sort(), [200, 409]);
    const userId = (await (await sessionOf(t, jar)).json()).user.id;
    let left = 0;
    for await (const _ of t.kv.list({ prefix: keys.identitiesByUserPrefix(userId) })) left++;
    assert.equal(left, 1);
  }));

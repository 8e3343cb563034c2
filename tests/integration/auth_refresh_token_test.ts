/**
 * provider_c's refresh token (docs/interface.md#auth-payload: "`provider_c` stores both tokens"): the authorize
 * redirect asks for offline access (`access_type=offline`, plus `PROVIDER_C_SCOPES` for a
 * generic OpenID provider), the token is stored sealed like the access token, and it never
 * reaches a browser outside docs/interface.md#auth-payload's HttpOnly payload cookie.
 */
import assert from "node:assert/strict";
import { identityTokens, listIdentities } from "@/lib/auth/identities.ts";
import { parseConfig } from "@/lib/config.ts";
import type { TestApp } from "../helpers/app.ts";
import {
  appWithFakeProviders,
  CookieJar,
  FAKE_TOKENS,
  sessionOf,
  setCookies,
  signInThrough,
  startLogin,
  TEST_SECRET,
} from "../helpers/oauth.ts";

const REFRESH = FAKE_TOKENS.provider_c.refresh!;

/** Every value in the store, as text. */
async function kvText(kv: Deno.Kv): Promise<string> {
  const parts: string[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    parts.push(JSON.stringify(e.key), JSON.stringify(e.value));
  }
  return parts.join("\n");
}

/** The provider_c identity of the one signed-in user. */
async function storedRefresh(t: TestApp, jar: CookieJar) {
  const session = await (await sessionOf(t, jar)).json();
  const ids = await listIdentities(t.kv, session.user.id);
  const c = ids.find((i) => i.provider === "provider_c");
  assert.ok(c, "provider_c identity stored");
  return { record: c, tokens: await identityTokens(TEST_SECRET, c) };
}

Deno.test("provider_c: the authorize redirect asks for offline access with the default scopes", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const { location } = await startLogin(t, "provider_c", new CookieJar());
    assert.equal(location.searchParams.get("access_type"), "offline");
    assert.equal(location.searchParams.get("scope"), "openid profile email");
    // No offline_access, so no consent prompt forced on every sign-in.
    assert.equal(location.searchParams.get("prompt"), null);
    // The other providers are unchanged.
    const b = await startLogin(t, "provider_b", new CookieJar());
    assert.equal(b.location.searchParams.get("access_type"), null);
  } finally {
    await close();
  }
});

Deno.test("provider_c: PROVIDER_C_SCOPES sets the scopes of the authorize redirect", async () => {
  const { t, close } = await appWithFakeProviders({
    env: { PROVIDER_C_SCOPES: "  openid profile   email offline_access " },
  });
  try {
    const { location } = await startLogin(t, "provider_c", new CookieJar());
    assert.equal(location.searchParams.get("scope"), "openid profile email offline_access");
    assert.equal(location.searchParams.get("access_type"), "offline");
    // OpenID Connect Core §11: offline_access is honoured only with prompt=consent.
    assert.equal(location.searchParams.get("prompt"), "consent");
    // provider_b has no such rule and gets no prompt.
    const b = await startLogin(t, "provider_b", new CookieJar());
    assert.equal(b.location.searchParams.get("prompt"), null);
  } finally {
    await close();
  }
  assert.throws(
    () => parseConfig({ PROVIDER_C_SCOPES: 'openid "profile"', LOCAL_MODE: "on" }),
    /PROVIDER_C_SCOPES must be scope tokens separated by spaces/,
  );
});

Deno.test("provider_c: a Google-like provider's refresh token is stored sealed and never sent to the browser", async () => {
  const { t, close } = await appWithFakeProviders();
  const bodies: string[] = [];
  const cookies: { value: string; httpOnly: boolean; name: string }[] = [];
  const recording: TestApp = {
    ...t,
    request: async (path, init) => {
      const res = await t.request(path, init);
      bodies.push(await res.clone().text(), JSON.stringify([...res.headers]));
      for (const c of setCookies(res)) {
        const httpOnly = Object.keys(c.attributes).some((k) => k.toLowerCase() === "httponly");
        cookies.push({ name: c.name, value: c.value, httpOnly });
      }
      return res;
    },
  };
  try {
    const { jar } = await signInThrough(recording, "provider_c");
    const { record, tokens } = await storedRefresh(t, jar);
    assert.equal(tokens.refreshToken, REFRESH, "the refresh token is kept");
    assert.equal(tokens.accessToken, FAKE_TOKENS.provider_c.access);
    assert.ok(record.refreshToken && record.refreshToken !== REFRESH, "stored as ciphertext");
    assert.ok(!(await kvText(t.kv)).includes(REFRESH), "no KV value holds it in plain text");
    // Pages and JSON a browser reads afterwards.
    for (const path of ["/profile", "/api/profile/me", "/api/profile/identities", "/"]) {
      await recording.request(path, { headers: { cookie: jar.header() } });
    }
    for (const text of bodies) assert.ok(!text.includes(REFRESH), "not in a body or header");
    // The only carrier is docs/interface.md#auth-payload's HttpOnly auth payload cookie, cleared by the app callback.
    const carriers = cookies.filter((c) => {
      try {
        return c.value.includes(REFRESH) ||
          new TextDecoder().decode(
            Uint8Array.from(
              atob(c.value.replaceAll("-", "+").replaceAll("_", "/")),
              (ch) => ch.charCodeAt(0),
            ),
          ).includes(REFRESH);
      } catch {
        return false;
      }
    });
    assert.ok(carriers.length > 0 && carriers.every((c) => c.httpOnly), "HttpOnly only");
    const last = cookies.filter((c) => c.name === carriers[0].name).at(-1)!;
    assert.equal(last.value, "", "the payload cookie is cleared after the sign-in");
  } finally {
    await close();
  }
});

Deno.test("provider_c: a generic OpenID provider issues the refresh token only for offline_access with prompt=consent", async () => {
  // Without offline_access in PROVIDER_C_SCOPES: access_type=offline is ignored, no token.
  const plain = await appWithFakeProviders();
  try {
    plain.fake.honoursAccessType = false;
    const { jar } = await signInThrough(plain.t, "provider_c");
    const { record } = await storedRefresh(plain.t, jar);
    assert.equal(record.refreshToken, null);
  } finally {
    await plain.close();
  }
  // With it (and the prompt=consent the scope needs): the token is issued and kept, sealed.
  const offline = await appWithFakeProviders({
    env: { PROVIDER_C_SCOPES: "openid profile email offline_access" },
  });
  try {
    offline.fake.honoursAccessType = false;
    const { jar } = await signInThrough(offline.t, "provider_c");
    const { record, tokens } = await storedRefresh(offline.t, jar);
    assert.equal(tokens.refreshToken, REFRESH);
    assert.notEqual(record.refreshToken, REFRESH);
    assert.ok(!(await kvText(offline.t.kv)).includes(REFRESH));
  } finally {
    await offline.close();
  }
});

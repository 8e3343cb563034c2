/**
 * Sessions after sign-in: the session endpoint, expiry and sliding renewal on the
 * injectable clock, logout (fetch and plain form), and the pages that depend on them.
 */
import assert from "node:assert/strict";
import { SESSION_RENEW_AFTER_MS, SESSION_TTL_MS } from "@/lib/auth/sessions.ts";
import { createTestApp } from "../helpers/app.ts";
import {
  appWithFakeProviders,
  CookieJar,
  sessionOf,
  setCookies,
  signInThrough,
} from "../helpers/oauth.ts";

const NOW = 1_800_000_000_000;
const ORIGIN = "http://localhost:8000";

Deno.test("GET /api/auth/session: 401 {error: Unauthorized} when signed out", async () => {
  const t = await createTestApp();
  try {
    const res = await t.request("/api/auth/session");
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { error: "Unauthorized" });
    const bogus = await t.request("/api/auth/session", {
      headers: { cookie: "parley_session=not-a-session" },
    });
    assert.equal(bogus.status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("a session expires after its lifetime without use, and slides while used", async () => {
  const clock = { now: NOW };
  const { t, close } = await appWithFakeProviders({ now: () => clock.now });
  try {
    const { jar } = await signInThrough(t, "provider_a");
    assert.equal((await sessionOf(t, jar)).status, 200);
    // Used again after a day: renewed, and the cookie is sent again.
    clock.now += SESSION_RENEW_AFTER_MS + 1;
    const renewed = await sessionOf(t, jar);
    assert.equal(renewed.status, 200);
    const cookie = setCookies(renewed).find((c) => c.name === "parley_session");
    assert.equal(cookie?.attributes["max-age"], String(SESSION_TTL_MS / 1000));
    // Still valid just before the renewed lifetime ends…
    clock.now += SESSION_TTL_MS - 1;
    assert.equal((await sessionOf(t, jar)).status, 200);
    // …which was renewed again by that request; unused past its lifetime, it is gone.
    clock.now += SESSION_TTL_MS + 1;
    const expired = await sessionOf(t, jar);
    assert.equal(expired.status, 401);
    const page = await (await t.request("/", { headers: { cookie: jar.header() } })).text();
    assert.doesNotMatch(page, /data-testid="user-menu"/);
  } finally {
    await close();
  }
});

Deno.test("a renewed session's cookie is sent again on an error answer too", async () => {
  const clock = { now: NOW };
  const { t, close } = await appWithFakeProviders({ now: () => clock.now });
  try {
    const { jar } = await signInThrough(t, "provider_a");
    clock.now += SESSION_RENEW_AFTER_MS + 1;
    // A handler that throws (an unknown question: 404) after the session slid.
    const res = await t.request("/api/questions/q-nope", { headers: { cookie: jar.header() } });
    assert.equal(res.status, 404);
    await res.body?.cancel();
    const cookie = setCookies(res).find((c) => c.name === "parley_session");
    assert.equal(cookie?.attributes["max-age"], String(SESSION_TTL_MS / 1000));
    // Not renewed again: the next error answer sends no cookie.
    const again = await t.request("/api/questions/q-nope", {
      headers: { cookie: jar.header() },
    });
    assert.equal(again.status, 404);
    await again.body?.cancel();
    assert.equal(setCookies(again).find((c) => c.name === "parley_session"), undefined);
  } finally {
    await close();
  }
});

Deno.test("logout with fetch: {ok: true}, cookie cleared, session gone server-side", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const { jar } = await signInThrough(t, "provider_b");
    const other = await signInThrough(t, "provider_b");
    const stolen = jar.header();
    const res = await t.request("/api/auth/logout", {
      method: "POST",
      headers: { cookie: jar.header(), origin: ORIGIN, "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { ok: true });
    assert.equal(
      setCookies(res).find((c) => c.name === "parley_session")?.attributes["max-age"],
      "0",
    );
    // The old cookie no longer works, even if someone kept a copy.
    assert.equal(
      (await t.request("/api/auth/session", { headers: { cookie: stolen } })).status,
      401,
    );
    // Other sessions of the same user are untouched.
    assert.equal((await sessionOf(t, other.jar)).status, 200);
    // Logging out while signed out is harmless.
    const again = await t.request("/api/auth/logout", { method: "POST" });
    assert.deepEqual(await again.json(), { ok: true });
  } finally {
    await close();
  }
});

Deno.test("logout works as a plain form post (303 home) and refuses cross-site posts", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const { jar } = await signInThrough(t, "provider_c");
    const cross = await t.request("/api/auth/logout", {
      method: "POST",
      headers: {
        cookie: jar.header(),
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
      },
    });
    assert.equal(cross.status, 403);
    assert.equal((await sessionOf(t, jar)).status, 200);
    const res = await t.request("/api/auth/logout", {
      method: "POST",
      headers: {
        cookie: jar.header(),
        origin: ORIGIN,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "",
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/");
    jar.take(res);
    assert.equal((await sessionOf(t, jar)).status, 401);
  } finally {
    await close();
  }
});

Deno.test("logout: an Authorization header does not let a cross-site post end the cookie's session", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const { jar } = await signInThrough(t, "provider_c");
    for (const type of ["application/json", "application/x-www-form-urlencoded"]) {
      const cross = await t.request("/api/auth/logout", {
        method: "POST",
        headers: {
          cookie: jar.header(),
          origin: "https://evil.example",
          authorization: "Bearer x",
          "content-type": type,
        },
        body: "",
      });
      assert.equal(cross.status, 403, type);
      assert.deepEqual(await cross.json(), { error: "Cross-site request refused" });
      assert.equal(cross.headers.get("set-cookie"), null);
      assert.equal((await sessionOf(t, jar)).status, 200);
    }
    // A same-origin sign-out with the same header still works.
    const res = await t.request("/api/auth/logout", {
      method: "POST",
      headers: { cookie: jar.header(), origin: ORIGIN, authorization: "Bearer x" },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { ok: true });
    jar.take(res);
    assert.equal((await sessionOf(t, jar)).status, 401);
  } finally {
    await close();
  }
});

Deno.test("signing in again as someone else ends the previous session", async () => {
  const { t, fake, close } = await appWithFakeProviders();
  try {
    const { jar } = await signInThrough(t, "provider_a");
    const firstCookie = jar.header();
    (fake.answers.provider_a.profile.body as { data: { userId: string } }).data.userId = "a-2";
    await signInThrough(t, "provider_a", { jar });
    assert.equal(
      (await t.request("/api/auth/session", { headers: { cookie: firstCookie } })).status,
      401,
    );
    assert.equal((await sessionOf(t, jar)).status, 200);
  } finally {
    await close();
  }
});

Deno.test("header: user menu with name, avatar and a sign-out form; sign-in link otherwise", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const anon = await (await t.request("/questions/q1?x=1")).text();
    assert.match(anon, /href="\/signin\?returnTo=%2Fquestions%2Fq1%3Fx%3D1"/);
    const { jar } = await signInThrough(t, "provider_a");
    const html = await (await t.request("/", { headers: { cookie: jar.header() } })).text();
    assert.match(html, /data-testid="user-name" dir="auto">Ada from A</);
    assert.match(html, /<img class="avatar-img" src="https:\/\/a.test\/ada.png"/);
    assert.match(html, /<form method="post" action="\/api\/auth\/logout"/);
    assert.doesNotMatch(html, /\son[a-z]+=/i, "no inline handlers");
  } finally {
    await close();
  }
});

Deno.test("/profile redirects signed-out visitors to sign in and back", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const res = await t.request("/profile");
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), "/signin?returnTo=%2Fprofile");
    const signin = await (await t.request("/signin?returnTo=%2Fprofile")).text();
    assert.match(signin, /href="\/api\/auth\/login\?returnTo=%2Fprofile"/);
    assert.match(signin, /href="\/api\/auth\/login\/provider_b\?returnTo=%2Fprofile"/);
    assert.match(signin, /href="\/api\/auth\/login\/provider_c\?returnTo=%2Fprofile"/);
    const { jar } = await signInThrough(t, "provider_c", {
      jar: new CookieJar(),
      query: "?returnTo=%2Fprofile",
    });
    const page = await t.request("/profile", { headers: { cookie: jar.header() } });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<h1 dir="auto">Cee from C<\/h1>/);
    assert.match(html, /data-testid="sign-in-methods"/);
    // The only identity cannot be unbound: its button is disabled.
    assert.match(html, /<button type="submit" class="btn btn-small" disabled/);
  } finally {
    await close();
  }
});

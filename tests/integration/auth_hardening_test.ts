/**
 * OAuth and session hardening through the real sign-in flow: no open redirect after
 * sign-in, a fresh session id on every sign-in, server-side logout, a redirect_uri fixed
 * to APP_ORIGIN whatever the Host header says, and the cookie flags on https.
 */
import assert from "node:assert/strict";
import { sessionCookieName } from "@/lib/auth/sessions.ts";
import {
  appCallback,
  appWithFakeProviders,
  callback,
  CookieJar,
  ROUTES,
  sessionOf,
  signInThrough,
  startLogin,
} from "../helpers/oauth.ts";

Deno.test("sign-in never redirects off-site, whatever returnTo says", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    for (const bad of ["/.//evil.example", "/%2e%2e//evil.example", "//evil.example"]) {
      const { app } = await signInThrough(t, "provider_c", {
        query: `?returnTo=${encodeURIComponent(bad)}`,
      });
      assert.equal(app.location, "/", bad);
    }
    const { app } = await signInThrough(t, "provider_c", { query: "?returnTo=%2Fask%3Fx%3D1" });
    assert.equal(app.location, "/ask?x=1");
  } finally {
    await close();
  }
});

Deno.test("POST /theme never redirects off-site through dot segments", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    for (const bad of ["/.//evil.example", "/a/..//evil.example", "/%2e//evil.example"]) {
      const res = await t.request("/theme", {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: t.services.config.appOrigin,
        },
        body: new URLSearchParams({ theme: "dark", returnTo: bad }),
      });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/", bad);
    }
  } finally {
    await close();
  }
});

Deno.test("a session id planted before sign-in is never adopted (fixation)", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const name = sessionCookieName(t.services.config.appOrigin);
    // The attacker's own valid session, planted in the victim's browser.
    const attacker = await signInThrough(t, "provider_b");
    const planted = attacker.jar.get(name)!;
    const jar = new CookieJar();
    jar.cookies.set(name, planted);
    await signInThrough(t, "provider_a", { jar });
    const issued = jar.get(name)!;
    assert.notEqual(issued, planted);
    const me = await (await sessionOf(t, jar)).json();
    const them = await (await t.request("/api/auth/session", {
      headers: { cookie: `${name}=${planted}` },
    }));
    assert.equal(them.status, 401, "the planted session ended with the sign-in");
    assert.notEqual(me.user.id, undefined);
  } finally {
    await close();
  }
});

Deno.test("logout ends the session server-side: a copied cookie stops working", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const { jar } = await signInThrough(t, "provider_a");
    const copy = jar.header();
    const out = await t.request("/api/auth/logout", {
      method: "POST",
      headers: { cookie: copy, origin: t.services.config.appOrigin },
    });
    assert.equal(out.status, 200);
    const replay = await t.request("/api/auth/session", { headers: { cookie: copy } });
    assert.equal(replay.status, 401);
    const write = await t.request("/api/questions", {
      method: "POST",
      headers: {
        cookie: copy,
        origin: t.services.config.appOrigin,
        "content-type": "application/json",
      },
      body: JSON.stringify({ title: "After logout" }),
    });
    assert.equal(write.status, 401);
  } finally {
    await close();
  }
});

Deno.test("redirect_uri is always APP_ORIGIN's, even for a request with a forged Host", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const res = await t.app.request("http://evil.example/api/auth/login/provider_b", {
      headers: { host: "evil.example", "x-forwarded-host": "evil.example" },
    });
    assert.equal(res.status, 302);
    const authorize = new URL(res.headers.get("location")!);
    assert.equal(
      authorize.searchParams.get("redirect_uri"),
      `${t.services.config.appOrigin}/api/auth/callback/provider_b`,
    );
    // The app callback redirect after the provider also goes to APP_ORIGIN.
    const jar = new CookieJar();
    const { state } = await startLogin(t, "provider_b", jar);
    const cb = await t.app.request(
      `http://evil.example${ROUTES.provider_b.callback}?code=c&state=${state}`,
      { headers: { cookie: jar.header(), host: "evil.example" } },
    );
    assert.ok(cb.headers.get("location")!.startsWith(`${t.services.config.appOrigin}/`));
  } finally {
    await close();
  }
});

Deno.test("on https every auth cookie is Secure and HttpOnly; the session is __Host- on /", async () => {
  const { t, close } = await appWithFakeProviders({
    env: { APP_ORIGIN: "https://parley.example" },
  });
  try {
    const jar = new CookieJar();
    const start = await startLogin(t, "provider_c", jar, "?returnTo=%2Fask");
    const cb = await callback(t, "provider_c", jar, { code: "c", state: start.state });
    const app = await appCallback(t, "provider_c", jar);
    const all = [
      ...jar.take(start.res),
      ...cb.cookies,
      ...app.cookies,
    ];
    assert.ok(all.length >= 7);
    for (const c of all) {
      assert.equal(c.attributes.secure, true, `${c.name} not Secure`);
      assert.equal(c.attributes.httponly, true, `${c.name} not HttpOnly`);
      assert.equal(c.attributes.samesite, "Lax", c.name);
      assert.equal(c.attributes.domain, undefined, `${c.name} has a Domain`);
    }
    const session = app.cookies.find((c) => c.name === "__Host-parley_session");
    assert.ok(session, "session cookie is __Host- prefixed");
    assert.equal(session.attributes.path, "/");
    assert.ok(!app.cookies.some((c) => c.name === "parley_session"));
    assert.equal(app.location, "/ask");
    const home = await t.request("/", { headers: { cookie: jar.header() } });
    assert.match(home.headers.get("strict-transport-security") ?? "", /max-age=\d+/);
    // Logout's deletion is Secure too, or a browser would ignore it for a __Host- cookie.
    const out = await t.request("/api/auth/logout", {
      method: "POST",
      headers: { cookie: jar.header(), origin: "https://parley.example" },
    });
    const cleared = jar.take(out).find((c) => c.name === "__Host-parley_session");
    assert.equal(cleared?.attributes.secure, true);
    assert.equal(cleared?.attributes["max-age"], "0");
    assert.equal(cleared?.attributes.path, "/");
  } finally {
    await close();
  }
});

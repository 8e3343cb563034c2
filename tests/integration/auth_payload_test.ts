/**
 * The payload cookie cannot be used to sign in as anyone else: forged, altered, expired,
 * replayed and cross-provider payloads all end at `/?error=auth_failed` with no session
 * and the payload cookie deleted.
 */
import assert from "node:assert/strict";
import type { ProviderId } from "@/lib/config.ts";
import { base64url, fromBase64url } from "@/lib/ids.ts";
import type { TestApp } from "../helpers/app.ts";
import {
  appCallback,
  appWithFakeProviders,
  callback,
  captureConsole,
  CookieJar,
  type FakeProviders,
  ROUTES,
  sessionOf,
  signInThrough,
  startLogin,
} from "../helpers/oauth.ts";

const NOW = 1_800_000_000_000;

/** Run the flow up to the payload cookie; returns the jar holding it. */
async function payloadFor(t: TestApp, provider: ProviderId): Promise<CookieJar> {
  const jar = new CookieJar();
  const { state } = await startLogin(t, provider, jar);
  const { location } = await callback(t, provider, jar, { code: "c", state });
  assert.match(location, /\/auth\/callback\//);
  assert.ok(jar.get(`${provider}_auth_payload`));
  return jar;
}

function decode(value: string) {
  return JSON.parse(new TextDecoder().decode(fromBase64url(value)));
}

function encode(payload: unknown): string {
  return base64url(new TextEncoder().encode(JSON.stringify(payload)));
}

async function expectRefused(t: TestApp, provider: ProviderId, jar: CookieJar) {
  const { res, location, cookies } = await appCallback(t, provider, jar);
  assert.equal(res.status, 302);
  assert.equal(location, "/?error=auth_failed");
  assert.equal(
    cookies.find((c) => c.name === `${provider}_auth_payload`)?.attributes["max-age"],
    "0",
    "payload cookie deleted",
  );
  assert.ok(!cookies.some((c) => c.name === "parley_session"), "no session cookie");
  assert.equal((await sessionOf(t, jar)).status, 401);
}

const ACCOUNT_FIELD: Record<ProviderId, { id: string }> = {
  provider_a: { id: "a-user-1" },
  provider_b: { id: "4242" },
  provider_c: { id: "c-sub-1" },
};
const ATTACKER_ID: Record<ProviderId, string> = {
  provider_a: "a-attacker",
  provider_b: "666",
  provider_c: "c-attacker",
};

/** Change the account id in a fake provider's profile answer. */
function setAccountId(body: unknown, provider: ProviderId, id: string) {
  if (provider === "provider_a") (body as { data: { userId: string } }).data.userId = id;
  else if (provider === "provider_b") (body as { id: number }).id = Number(id);
  else (body as { sub: string }).sub = id;
}

async function withApp(
  fn: (t: TestApp, clock: { now: number }, fake: FakeProviders) => Promise<void>,
): Promise<void> {
  const clock = { now: NOW };
  const { t, fake, close } = await appWithFakeProviders({ now: () => clock.now });
  const quiet = captureConsole();
  try {
    await fn(t, clock, fake);
  } finally {
    quiet.restore();
    await close();
  }
}

for (const provider of ["provider_a", "provider_b", "provider_c"] as const) {
  Deno.test(`${provider}: an altered payload (the victim's account id) signs nobody in`, () =>
    withApp(async (t, _clock, fake) => {
      // The victim signs in with the provider's default account.
      await signInThrough(t, provider);
      const victim = ACCOUNT_FIELD[provider];
      const victimProfile = structuredClone(fake.answers[provider].profile.body);
      // The attacker signs in with their own account at the same provider…
      setAccountId(fake.answers[provider].profile.body, provider, ATTACKER_ID[provider]);
      const jar = await payloadFor(t, provider);
      // …then rewrites the payload to the victim's account, consistently.
      const p = decode(jar.get(`${provider}_auth_payload`)!);
      p.providerAccountId = victim.id;
      p.profile = provider === "provider_a"
        ? (victimProfile as { data: unknown }).data
        : victimProfile;
      jar.cookies.set(`${provider}_auth_payload`, encode(p));
      await expectRefused(t, provider, jar);
    }));

  Deno.test(`${provider}: a forged payload (never issued) signs nobody in`, () =>
    withApp(async (t, clock) => {
      const jar = new CookieJar();
      const profiles = {
        provider_a: { userId: "a-user-1", name: "Victim" },
        provider_b: { id: 4242, login: "bee", name: "Victim", email: null, avatar_url: null },
        provider_c: { sub: "c-sub-1", name: "Victim" },
      };
      jar.cookies.set(
        `${provider}_auth_payload`,
        encode({
          provider,
          providerAccountId: provider === "provider_a"
            ? "a-user-1"
            : provider === "provider_b"
            ? "4242"
            : "c-sub-1",
          profile: profiles[provider],
          accessToken: "forged",
          refreshToken: null,
          expiresAt: null,
          issuedAt: clock.now,
        }),
      );
      await expectRefused(t, provider, jar);
    }));

  Deno.test(`${provider}: a replayed payload is accepted only once`, () =>
    withApp(async (t) => {
      const jar = await payloadFor(t, provider);
      const value = jar.get(`${provider}_auth_payload`)!;
      const first = await appCallback(t, provider, jar);
      assert.ok(first.cookies.some((c) => c.name === "parley_session" && c.value));
      // Replayed from another browser that copied the cookie.
      const thief = new CookieJar();
      thief.cookies.set(`${provider}_auth_payload`, value);
      await expectRefused(t, provider, thief);
    }));

  Deno.test(`${provider}: an expired payload (over 2 minutes) is refused`, () =>
    withApp(async (t, clock) => {
      const jar = await payloadFor(t, provider);
      clock.now += 2 * 60 * 1000 + 1;
      await expectRefused(t, provider, jar);
    }));
}

Deno.test("a payload is accepted just inside its 2-minute lifetime", () =>
  withApp(async (t, clock) => {
    const jar = await payloadFor(t, "provider_a");
    clock.now += 2 * 60 * 1000 - 1;
    const { location } = await appCallback(t, "provider_a", jar);
    assert.equal(location, "/");
    assert.equal((await sessionOf(t, jar)).status, 200);
  }));

Deno.test("a payload with an edited issuedAt is refused (its nonce no longer matches)", () =>
  withApp(async (t, clock) => {
    const jar = await payloadFor(t, "provider_c");
    clock.now += 3 * 60 * 1000;
    const p = decode(jar.get("provider_c_auth_payload")!);
    p.issuedAt = clock.now;
    jar.cookies.set("provider_c_auth_payload", encode(p));
    await expectRefused(t, "provider_c", jar);
  }));

Deno.test("a payload is only accepted by its own provider's callback page", () =>
  withApp(async (t) => {
    const jar = await payloadFor(t, "provider_b");
    // Move provider_b's genuine payload under provider_c's cookie name.
    jar.cookies.set("provider_c_auth_payload", jar.get("provider_b_auth_payload")!);
    jar.cookies.delete("provider_b_auth_payload");
    await expectRefused(t, "provider_c", jar);
  }));

Deno.test("garbage, empty and missing payload cookies and unknown providers are refused", () =>
  withApp(async (t) => {
    for (const value of ["", "!!!", "bm90IGpzb24", encode({ provider: "provider_a" })]) {
      const jar = new CookieJar();
      if (value) jar.cookies.set("provider_a_auth_payload", value);
      await expectRefused(t, "provider_a", jar);
    }
    const res = await t.request("/auth/callback/oauth?provider=provider_a-oauth");
    assert.equal(res.headers.get("location"), "/?error=auth_failed");
    const none = await t.request("/auth/callback/oauth");
    assert.equal(none.headers.get("location"), "/?error=auth_failed");
    assert.equal(ROUTES.provider_b.app, "/auth/callback/oauth?provider=provider_b-oauth");
  }));

Deno.test("two identical payloads (same account, tokens and millisecond) are each accepted once", () =>
  withApp(async (t) => {
    const one = await payloadFor(t, "provider_b");
    const two = await payloadFor(t, "provider_b");
    const value = one.get("provider_b_auth_payload")!;
    assert.equal(two.get("provider_b_auth_payload"), value, "byte-identical cookies");
    assert.equal((await appCallback(t, "provider_b", one)).location, "/");
    assert.equal((await appCallback(t, "provider_b", two)).location, "/");
    const third = new CookieJar();
    third.cookies.set("provider_b_auth_payload", value);
    await expectRefused(t, "provider_b", third);
  }));

/**
 * Every failing callback: the error redirect of docs/interface.md#callback's table, no payload cookie, no
 * session, and the five flow cookies deleted — for each provider, against fake
 * providers that fail in each way a real one can.
 */
import assert from "node:assert/strict";
import type { ProviderId } from "@/lib/config.ts";
import {
  type Answer,
  appWithFakeProviders,
  callback,
  captureConsole,
  CookieJar,
  type FakeProviders,
  flowCookies,
  type SetCookie,
  startLogin,
} from "../helpers/oauth.ts";
import type { TestApp } from "../helpers/app.ts";

const PROVIDERS: ProviderId[] = ["provider_a", "provider_b", "provider_c"];

function assertFlowCookiesDeleted(provider: ProviderId, cookies: SetCookie[]) {
  for (const name of flowCookies(provider)) {
    const c = cookies.find((x) => x.name === name);
    assert.ok(c, `${name} is deleted`);
    assert.equal(c.attributes["max-age"], "0", name);
    assert.equal(c.value, "");
  }
  assert.ok(!cookies.some((c) => c.name === `${provider}_auth_payload`), "no payload cookie");
  assert.ok(!cookies.some((c) => c.name === "parley_session"), "no session");
}

/** Run one failing callback and check its redirect and cookies. */
async function expectFailure(
  t: TestApp,
  provider: ProviderId,
  expected: string,
  mutate: (p: { state: string; jar: CookieJar }) => Record<string, string>,
) {
  const jar = new CookieJar();
  const { state } = await startLogin(t, provider, jar);
  const params = mutate({ state, jar });
  const { res, location, cookies } = await callback(t, provider, jar, params);
  assert.equal(res.status, 302);
  assert.equal(location, expected);
  assertFlowCookiesDeleted(provider, cookies);
}

async function withFake(
  fn: (t: TestApp, fake: FakeProviders, logs: string[]) => Promise<void>,
): Promise<void> {
  const { t, fake, close } = await appWithFakeProviders();
  const con = captureConsole();
  try {
    await fn(t, fake, con.lines);
  } finally {
    con.restore();
    await close();
  }
}

for (const provider of PROVIDERS) {
  Deno.test(`${provider}: provider error → /?error=oauth_error`, () =>
    withFake(async (t, fake) => {
      await expectFailure(t, provider, "/?error=oauth_error", ({ state }) => ({
        error: "access_denied",
        state,
      }));
      assert.equal(fake.requests.length, 0, "no token request after a provider error");
    }));

  Deno.test(`${provider}: missing, mismatched or unstored state → /?error=invalid_state`, () =>
    withFake(async (t, fake) => {
      await expectFailure(t, provider, "/?error=invalid_state", () => ({ code: "c" }));
      await expectFailure(t, provider, "/?error=invalid_state", ({ state }) => ({
        code: "c",
        state: state.slice(0, -1) + (state.endsWith("A") ? "B" : "A"),
      }));
      await expectFailure(t, provider, "/?error=invalid_state", ({ state, jar }) => {
        jar.cookies.delete(`${provider}_oauth_state`);
        return { code: "c", state };
      });
      // Another provider's state cookie is no substitute.
      await expectFailure(t, provider, "/?error=invalid_state", ({ state, jar }) => {
        jar.cookies.delete(`${provider}_oauth_state`);
        const other = PROVIDERS.find((p) => p !== provider)!;
        jar.cookies.set(`${other}_oauth_state`, state);
        return { code: "c", state };
      });
      assert.equal(fake.requests.length, 0);
    }));

  Deno.test(`${provider}: missing code → /?error=no_code`, () =>
    withFake(async (t, fake) => {
      await expectFailure(t, provider, "/?error=no_code", ({ state }) => ({ state }));
      await expectFailure(t, provider, "/?error=no_code", ({ state }) => ({ state, code: "" }));
      assert.equal(fake.requests.length, 0);
    }));

  const failures: [string, (fake: FakeProviders) => unknown][] = [
    ["token endpoint 500", (f) => (f.answers[provider].token = { status: 500, body: {} })],
    ["token endpoint 401", (f) => (f.answers[provider].token = { status: 401, body: {} })],
    ["token answer not JSON", (f) => (f.answers[provider].token = { raw: "<html>oops" })],
    ["token answer malformed JSON", (f) => (f.answers[provider].token = { raw: '{"access' })],
    [
      "token answer of the wrong shape",
      (f) => (f.answers[provider].token = { body: { error: "bad_verification_code" } }),
    ],
    ["profile fetch 500", (f) => (f.answers[provider].profile = { status: 500, body: {} })],
    ["profile answer malformed", (f) => (f.answers[provider].profile = { raw: "not json" })],
    ["profile without an id", (f) => (f.answers[provider].profile = { body: { name: "x" } })],
    ["provider unreachable", (f) => f.close()],
  ];
  for (const [label, setUp] of failures) {
    Deno.test(`${provider}: ${label} → /?error=auth_failed`, () =>
      withFake(async (t, fake, logs) => {
        await setUp(fake);
        await expectFailure(t, provider, "/?error=auth_failed", ({ state }) => ({
          code: "c",
          state,
        }));
        assert.ok(logs.some((l) => l.includes(`Sign-in with ${provider} failed (auth_failed)`)));
      }));
  }
}

Deno.test("provider_a: `code: 1` in the token answer → auth_failed", () =>
  withFake(async (t, fake) => {
    fake.answers.provider_a.token = { body: { code: 1, message: "invalid code" } };
    await expectFailure(t, "provider_a", "/?error=auth_failed", ({ state }) => ({
      code: "c",
      state,
    }));
    assert.ok(!fake.requests.some((r) => r.endpoint === "profile"), "no profile fetch");
  }));

Deno.test("provider_a: `code: 1` with data still present → auth_failed", () =>
  withFake(async (t, fake) => {
    const ok = fake.answers.provider_a.token.body as { data: unknown };
    fake.answers.provider_a.token = { body: { code: 1, data: ok.data } };
    await expectFailure(t, "provider_a", "/?error=auth_failed", ({ state }) => ({
      code: "c",
      state,
    }));
  }));

Deno.test("provider_a: a non-zero code in the userinfo answer → auth_failed", () =>
  withFake(async (t, fake) => {
    const profile = fake.answers.provider_a.profile.body as { data: unknown };
    fake.answers.provider_a.profile = { body: { code: 1001, data: profile.data } };
    await expectFailure(t, "provider_a", "/?error=auth_failed", ({ state }) => ({
      code: "c",
      state,
    }));
  }));

Deno.test("provider_b: emails endpoint failure while email is null → auth_failed", () =>
  withFake(async (t, fake) => {
    fake.answers.provider_b.emails = { status: 500, body: {} } satisfies Answer;
    await expectFailure(t, "provider_b", "/?error=auth_failed", ({ state }) => ({
      code: "c",
      state,
    }));
  }));

Deno.test("failure logs name the cause but never a token or the answer body", () =>
  withFake(async (t, fake, logs) => {
    fake.answers.provider_c.token = {
      status: 200,
      body: { access_token: "tok-leak-check", expires_in: "soon" },
    };
    await expectFailure(t, "provider_c", "/?error=auth_failed", ({ state }) => ({
      code: "c",
      state,
    }));
    const line = logs.find((l) => l.includes("provider_c"));
    assert.match(line ?? "", /unexpected shape \(expires_in\)/);
    assert.ok(!logs.join("\n").includes("tok-leak-check"));
  }));

Deno.test("the home page explains each sign-in error in plain words", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const expected: Record<string, RegExp> = {
      invalid_state: /expired or was started in another browser/,
      no_code: /without confirming who you are/,
      auth_failed: /could not finish signing you in/,
    };
    for (const [code, text] of Object.entries(expected)) {
      const html = await (await t.request(`/?error=${code}`)).text();
      assert.match(html, /data-testid="signin-error"/);
      assert.match(html, text);
    }
    const cancelled = await (await t.request("/?error=oauth_error")).text();
    assert.match(
      cancelled,
      /data-testid="signin-cancelled"[^>]*>\s*<strong>Sign-in cancelled\.<\/strong>/,
    );
    assert.doesNotMatch(cancelled, /data-testid="signin-error"|Sign-in failed/);
    const plain = await (await t.request("/?error=<script>")).text();
    assert.doesNotMatch(plain, /data-testid="signin-error"/);
  } finally {
    await close();
  }
});

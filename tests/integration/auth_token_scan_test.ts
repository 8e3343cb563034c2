/**
 * Provider tokens never reach a browser or a log: every response of a full tour (sign-in
 * with each provider, bind, failures after a token was issued, pages, JSON endpoints,
 * logout) is scanned — bodies, headers and decoded cookie values — as are the request
 * log (logSink), the console and the KV store. The one allowed carrier is the HttpOnly
 * payload cookie that docs/interface.md#auth-payload prescribes, scoped to the app callback path.
 */
import assert from "node:assert/strict";
import type { ProviderId } from "@/lib/config.ts";
import { logSink } from "@/lib/http/log.ts";
import { fromBase64url } from "@/lib/ids.ts";
import type { TestApp } from "../helpers/app.ts";
import {
  appWithFakeProviders,
  callback,
  captureConsole,
  CookieJar,
  FAKE_TOKENS,
  setCookies,
  signInThrough,
  startLogin,
} from "../helpers/oauth.ts";

const SECRETS: string[] = Object.values(FAKE_TOKENS)
  .flatMap((t): (string | null)[] => [t.access, t.refresh])
  .filter((s): s is string => s !== null);

function decodedForms(value: string): string[] {
  const out = [value];
  try {
    out.push(decodeURIComponent(value));
  } catch { /* not URI-encoded */ }
  try {
    out.push(new TextDecoder().decode(fromBase64url(value)));
  } catch { /* not base64url */ }
  return out;
}

function findSecret(text: string): string | undefined {
  return SECRETS.find((s) => text.includes(s));
}

Deno.test("provider tokens appear in no response body, header, page, log line or KV value", async () => {
  const { t, fake, close } = await appWithFakeProviders({ logRequests: true });
  const logLines: string[] = [];
  const originalWrite = logSink.write;
  logSink.write = (line) => void logLines.push(line);
  const con = captureConsole();
  const seen: { path: string; res: Response; body: string }[] = [];
  const recording: TestApp = {
    ...t,
    request: async (path, init) => {
      const res = await t.request(path, init);
      const body = await res.clone().text();
      seen.push({ path, res, body });
      return res;
    },
  };
  try {
    const jars: Partial<Record<ProviderId, CookieJar>> = {};
    for (const p of ["provider_a", "provider_b", "provider_c"] as const) {
      jars[p] = (await signInThrough(recording, p, { query: "?returnTo=%2Fprofile" })).jar;
    }
    const jar = jars.provider_a!;
    // A fresh user binds a provider_c account nobody owns yet.
    const fresh = await signInThrough(recording, "provider_a");
    (fake.answers.provider_c.profile.body as { sub: string }).sub = "c-bind";
    const bindStart = await recording.request("/api/auth/bind/start?provider=provider_c", {
      headers: { cookie: fresh.jar.header() },
    });
    fresh.jar.take(bindStart);
    const state = new URL(bindStart.headers.get("location")!).searchParams.get("state")!;
    const bound = await callback(recording, "provider_c", fresh.jar, { code: "x", state });
    assert.match(bound.location, /bind=success/);

    // Failures after the provider handed out a token: profile fetch fails.
    for (const p of ["provider_a", "provider_b", "provider_c"] as const) {
      fake.answers[p].profile = { status: 500, body: { echo: FAKE_TOKENS[p].access } };
      const j = new CookieJar();
      const { state: s } = await startLogin(recording, p, j);
      const failed = await callback(recording, p, j, { code: "c", state: s });
      assert.equal(failed.location, "/?error=auth_failed");
    }
    // provider_a answers code ≠ 0 together with a token.
    fake.answers.provider_a.token = {
      body: { code: 7, data: { accessToken: FAKE_TOKENS.provider_a.access } },
    };
    const j = new CookieJar();
    const { state: s } = await startLogin(recording, "provider_a", j);
    await callback(recording, "provider_a", j, { code: "c", state: s });

    // Pages and JSON a signed-in user sees.
    for (
      const path of [
        "/",
        "/signin",
        "/profile",
        "/profile?bind=success&provider=provider_c",
        "/api/auth/session",
        "/api/profile/identities",
      ]
    ) {
      for (const who of [jar, fresh.jar]) {
        const res = await recording.request(path, { headers: { cookie: who.header() } });
        assert.equal(res.status, 200, path);
      }
    }
    await recording.request("/api/auth/logout", {
      method: "POST",
      headers: { cookie: jar.header(), origin: t.services.config.appOrigin },
    });

    // The scan.
    assert.ok(seen.length > 30, `scanned ${seen.length} responses`);
    let payloadCookies = 0;
    for (const { path, res, body } of seen) {
      assert.equal(findSecret(body), undefined, `body of ${path}`);
      for (const [name, value] of res.headers) {
        if (name === "set-cookie") continue;
        assert.equal(findSecret(value), undefined, `header ${name} of ${path}`);
      }
      for (const c of setCookies(res)) {
        const leaked = decodedForms(c.value).map(findSecret).find(Boolean);
        if (!leaked) continue;
        // Only the payload cookie may carry a token: HttpOnly, 2 minutes, callback path.
        assert.match(c.name, /^provider_[abc]_auth_payload$/, `${c.name} on ${path}`);
        assert.equal(c.attributes["httponly"], true);
        assert.equal(c.attributes["max-age"], "120");
        assert.equal(c.attributes["path"], "/auth/callback");
        payloadCookies++;
      }
    }
    assert.equal(payloadCookies, 4, "one payload cookie per login (4 logins)");

    assert.ok(logLines.length >= seen.length, "request lines were logged");
    assert.ok(logLines.some((l) => l.startsWith("GET /api/auth/callback ")));
    for (const line of [...logLines, ...con.lines]) {
      assert.equal(findSecret(line), undefined, `log line: ${line}`);
      assert.doesNotMatch(line, /code=|state=/, "no query strings in logs");
    }
    assert.ok(con.lines.some((l) => l.includes("auth_failed")), "failures were logged");

    for await (const entry of t.kv.list({ prefix: [] })) {
      const text = JSON.stringify(entry.value);
      assert.equal(findSecret(text), undefined, `KV ${JSON.stringify(entry.key)}`);
    }
  } finally {
    logSink.write = originalWrite;
    con.restore();
    await close();
  }
});

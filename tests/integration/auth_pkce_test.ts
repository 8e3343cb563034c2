/**
 * Sign-in hardening (docs/interface.md#sign-in): PKCE S256 with every provider, checked by the fake
 * providers on loopback, and the RFC 9207 `iss` check against `PROVIDER_X_ISSUER`.
 */
import assert from "node:assert/strict";
import { PROVIDERS } from "@/lib/config.ts";
import { pkceChallenge } from "@/lib/auth/crypto.ts";
import {
  appCallback,
  appWithFakeProviders,
  callback,
  CookieJar,
  flowCookies,
  ROUTES,
  sessionOf,
  startLogin,
} from "../helpers/oauth.ts";

for (const provider of PROVIDERS) {
  Deno.test(`${provider}: PKCE — the fake provider verifies the verifier against the challenge`, async () => {
    const { t, fake, close } = await appWithFakeProviders();
    try {
      const jar = new CookieJar();
      const { state, location } = await startLogin(t, provider, jar);
      const verifier = jar.get(`${provider}_oauth_code_verifier`)!;
      assert.equal(location.searchParams.get("code_challenge"), await pkceChallenge(verifier));
      assert.equal(location.searchParams.get("code_challenge_method"), "S256");
      const api = await callback(t, provider, jar, { code: "c1", state });
      assert.ok(api.location.endsWith(ROUTES[provider].app), api.location);
      // Every flow cookie, the verifier too, is deleted by the callback.
      for (const name of flowCookies(provider)) {
        assert.ok(
          api.cookies.some((c) =>
            c.name === name && String(c.attributes["max-age"] ?? c.attributes["Max-Age"]) === "0"
          ),
          name,
        );
      }
      assert.ok(flowCookies(provider).includes(`${provider}_oauth_code_verifier`));
      await appCallback(t, provider, jar);
      assert.equal((await sessionOf(t, jar)).status, 200);
      assert.equal(fake.requests.filter((r) => r.endpoint === "token").length, 1);
    } finally {
      await close();
    }
  });

  Deno.test(`${provider}: a wrong or missing PKCE verifier fails the sign-in`, async () => {
    const { t, fake, close } = await appWithFakeProviders();
    try {
      // Wrong: the verifier cookie of another start.
      const name = `${provider}_oauth_code_verifier`;
      const jar = new CookieJar();
      const { state } = await startLogin(t, provider, jar);
      const other = new CookieJar();
      await startLogin(t, provider, other);
      jar.take(new Response(null, { headers: { "set-cookie": `${name}=${other.get(name)}` } }));
      const wrong = await callback(t, provider, jar, { code: "c2", state });
      assert.equal(wrong.location, "/?error=auth_failed");
      // Missing: no verifier cookie at all; no token request is made.
      const jar2 = new CookieJar();
      const second = await startLogin(t, provider, jar2);
      jar2.take(new Response(null, { headers: { "set-cookie": `${name}=; Max-Age=0` } }));
      assert.equal(jar2.get(name) ?? "", "");
      const before = fake.requests.length;
      const missing = await callback(t, provider, jar2, { code: "c3", state: second.state });
      assert.match(missing.location, /^\/\?error=/);
      assert.equal(fake.requests.length, before);
    } finally {
      await close();
    }
  });

  Deno.test(`${provider}: iss (RFC 9207) must match PROVIDER_X_ISSUER when both are present`, async () => {
    const issuer = `https://${provider}.example`;
    const env = { [`${provider.toUpperCase()}_ISSUER`]: issuer };
    const { t, fake, close } = await appWithFakeProviders({ env });
    try {
      const jar = new CookieJar();
      const { state } = await startLogin(t, provider, jar);
      const bad = await callback(t, provider, jar, {
        code: "c4",
        state,
        iss: "https://evil.example",
      });
      assert.equal(bad.location, "/?error=auth_failed");
      assert.equal(fake.requests.length, 0, "no token request after an iss mismatch");

      const jar2 = new CookieJar();
      const ok = await startLogin(t, provider, jar2);
      const good = await callback(t, provider, jar2, { code: "c5", state: ok.state, iss: issuer });
      assert.ok(good.location.endsWith(ROUTES[provider].app), good.location);

      // No iss on the redirect: nothing to compare (RFC 9207 is optional for providers).
      const jar3 = new CookieJar();
      const none = await startLogin(t, provider, jar3);
      const plain = await callback(t, provider, jar3, { code: "c6", state: none.state });
      assert.ok(plain.location.endsWith(ROUTES[provider].app), plain.location);
    } finally {
      await close();
    }
  });
}

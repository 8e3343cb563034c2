import assert from "node:assert/strict";
import { s256Challenge } from "./pkce.ts";
import {
  authenticateAccessToken,
  exchangeCode,
  issueCode,
  listConnectedApps,
  refreshGrant,
} from "./tokens.ts";

const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const REDIRECT = "http://127.0.0.1:9/cb";

async function approved(kv: Deno.Kv, now: number): Promise<string> {
  return await issueCode(kv, {
    clientId: "client_a",
    clientName: "App",
    userId: "u_1",
    redirectUri: REDIRECT,
    codeChallenge: s256Challenge(VERIFIER),
    scopes: ["read", "write"],
    resource: "https://parley.example/mcp",
  }, now);
}

const redeem = (kv: Deno.Kv, code: string, now: number) =>
  exchangeCode(kv, {
    code,
    clientId: "client_a",
    redirectUri: REDIRECT,
    codeVerifier: VERIFIER,
    resource: null,
  }, now);

Deno.test("a code redeemed by two racing requests grants once, and the loser's replay revokes it", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const now = Date.now();
    const code = await approved(kv, now);
    const results = await Promise.all([redeem(kv, code, now), redeem(kv, code, now)]);
    const won = results.filter((r) => r.ok);
    assert.equal(won.length, 1);
    assert.deepEqual(results.find((r) => !r.ok), {
      ok: false,
      reason: "invalid_grant",
      description: "The code was already used; the access it granted is revoked",
    });
    assert.deepEqual(await listConnectedApps(kv, "u_1", now), []);
  } finally {
    kv.close();
  }
});

Deno.test("two racing refreshes with one token: one rotates, the other is a reuse that revokes the grant", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const now = Date.now();
    const first = await redeem(kv, await approved(kv, now), now);
    assert.ok(first.ok);
    const refresh = () =>
      refreshGrant(kv, {
        refreshToken: first.tokens.refreshToken,
        clientId: "client_a",
        scopes: null,
        resource: null,
      }, now);
    const results = await Promise.all([refresh(), refresh()]);
    assert.equal(results.filter((r) => r.ok).length, 1);
    const winner = results.find((r) => r.ok);
    assert.ok(winner?.ok);
    assert.equal(await authenticateAccessToken(kv, winner.tokens.accessToken, now), null);
    assert.deepEqual(await listConnectedApps(kv, "u_1", now), []);
  } finally {
    kv.close();
  }
});

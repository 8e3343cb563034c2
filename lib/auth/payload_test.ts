/** The sign-in payload codec. */
import assert from "node:assert/strict";
import { decodePayload, encodePayload, payloadIsFresh } from "@/lib/auth/payload.ts";

Deno.test("decodePayload() round-trips encodePayload(), refuses a bad value or another provider's profile; payloadIsFresh() ends after two minutes", () => {
  const payload = {
    provider: "provider_b" as const,
    providerAccountId: "7",
    profile: { id: 7, login: "x", name: null, email: "x@y.z", avatar_url: null, bio: null },
    accessToken: "t",
    refreshToken: null,
    expiresAt: null,
    issuedAt: 1000,
  };
  const value = encodePayload(payload);
  assert.match(value, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(decodePayload(value), payload);
  // A provider_a profile under provider_b is refused.
  const wrong = encodePayload({ ...payload, profile: { userId: "1" } });
  assert.equal(decodePayload(wrong), null);
  assert.equal(decodePayload("%%%"), null);
  assert.equal(decodePayload(undefined), null);
  assert.equal(payloadIsFresh(payload, 1000 + 120_000), true);
  assert.equal(payloadIsFresh(payload, 1000 + 120_001), false);
});

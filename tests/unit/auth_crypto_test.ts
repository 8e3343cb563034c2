/** Token sealing (AES-GCM under the app secret) and the payload codec. */
import assert from "node:assert/strict";
import { decryptString, encryptString, timingSafeEqual } from "@/lib/auth/crypto.ts";
import { decodePayload, encodePayload, payloadIsFresh } from "@/lib/auth/payload.ts";
import { providerB } from "@/lib/auth/provider_b.ts";
import { providerA } from "@/lib/auth/provider_a.ts";

const SECRET = "unit-secret-0123456789-0123456789-xyz";

Deno.test("sealed tokens decrypt only with the same secret and context", async () => {
  const sealed = await encryptString(SECRET, "access-123", "provider_a:1");
  assert.match(sealed, /^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  assert.ok(!sealed.includes("access-123"));
  assert.equal(await decryptString(SECRET, sealed, "provider_a:1"), "access-123");
  assert.equal(await decryptString(SECRET, sealed, "provider_a:2"), null, "other context");
  assert.equal(await decryptString(SECRET + "x", sealed, "provider_a:1"), null, "other secret");
  const [v, iv, ct] = sealed.split(".");
  const flipped = ct.slice(0, -2) + (ct.at(-2) === "A" ? "B" : "A") + ct.at(-1);
  assert.equal(await decryptString(SECRET, `${v}.${iv}.${flipped}`, "provider_a:1"), null);
  assert.equal(await decryptString(SECRET, "garbage", "provider_a:1"), null);
  // Fresh IV each time: equal tokens do not look equal at rest.
  assert.notEqual(await encryptString(SECRET, "same"), await encryptString(SECRET, "same"));
});

Deno.test("timingSafeEqual compares whole strings", () => {
  assert.equal(timingSafeEqual("abc", "abc"), true);
  assert.equal(timingSafeEqual("abc", "abd"), false);
  assert.equal(timingSafeEqual("abc", "abcd"), false);
  assert.equal(timingSafeEqual("", ""), true);
});

Deno.test("payload codec: round trip, shape and profile validated per provider", () => {
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

Deno.test("profiles normalize to a display name, an http(s) avatar and a clipped bio", () => {
  const b = providerB.normalize(providerB.profileSchema.parse({
    id: 12,
    login: "octo",
    name: null,
    email: null,
    avatar_url: "javascript:alert(1)",
  }));
  assert.deepEqual(b, {
    providerAccountId: "12",
    name: "octo",
    email: null,
    avatar: null,
    bio: "",
  });
  const a = providerA.normalize(providerA.profileSchema.parse({
    userId: 99,
    name: "  ",
    email: "someone@a.test",
    avatar: "https://a.test/x.png",
    bio: "",
    selfIntroduction: "x".repeat(500),
  }));
  assert.equal(a.providerAccountId, "99");
  assert.equal(a.name, "someone");
  assert.equal(a.avatar, "https://a.test/x.png");
  assert.equal(a.bio.length, 200);
});

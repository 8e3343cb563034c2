/** Token sealing (AES-GCM under the app secret) and constant-time comparison. */
import assert from "node:assert/strict";
import { decryptString, encryptString, timingSafeEqual } from "@/lib/auth/crypto.ts";

const SECRET = "unit-secret-0123456789-0123456789-xyz";

Deno.test("encryptString() output decrypts only with the same secret and context", async () => {
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

Deno.test("timingSafeEqual() is true only for equal whole strings", () => {
  assert.equal(timingSafeEqual("abc", "abc"), true);
  assert.equal(timingSafeEqual("abc", "abd"), false);
  assert.equal(timingSafeEqual("abc", "abcd"), false);
  assert.equal(timingSafeEqual("", ""), true);
});

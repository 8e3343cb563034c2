/** What a backup copies and the expiry a restored record gets. */
import assert from "node:assert/strict";
import { isStoreKey, restoredExpireIn } from "./backup_scope.ts";
import { NOTIFICATION_TTL_MS } from "../notifications/stored.ts";

Deno.test("isStoreKey() names the store's own records and nothing else", () => {
  assert.ok(isStoreKey(["meta", "denoVersion"]));
  assert.ok(isStoreKey(["meta", "restore"]));
  assert.ok(!isStoreKey(["meta", "app_secret"]));
  assert.ok(!isStoreKey(["meta", "denoVersion", "x"]));
  assert.ok(!isStoreKey(["users", "denoVersion"]));
});

Deno.test("restoredExpireIn() gives expiring records their time left, and nothing else an expiry", () => {
  const now = 1_000_000;
  assert.equal(restoredExpireIn(["sessions", "s"], { expiresAt: now + 5_000 }, now), 5_000);
  assert.equal(restoredExpireIn(["idempotency", "u", "k"], { expiresAt: now + 1 }, now), 1);
  assert.equal(restoredExpireIn(["sessions", "s"], { expiresAt: now - 1 }, now), 0, "expired");
  // An identity's expiresAt is its provider token's; the identity never expires.
  assert.equal(restoredExpireIn(["identities", "a", "1"], { expiresAt: now - 1 }, now), undefined);
  assert.equal(restoredExpireIn(["sessions", "s"], { other: 1 }, now), undefined);
  assert.equal(restoredExpireIn(["sessions", "s"], "text", now), undefined);
});

Deno.test("restoredExpireIn() gives a notification the rest of its 90 days from its id's time", () => {
  const created = 1_700_000_000_000;
  const id = `n-${created.toString(36).padStart(9, "0")}0000abc`;
  const key = ["notifications", "u_1", id];
  assert.equal(
    restoredExpireIn(key, { t: "reply", q: "q-1" }, created + 1_000),
    NOTIFICATION_TTL_MS - 1_000,
  );
  assert.equal(
    restoredExpireIn(key, { t: "reply", q: "q-1" }, created + NOTIFICATION_TTL_MS),
    0,
    "expired",
  );
  assert.equal(
    restoredExpireIn(["notifications", "u_1", "x"], {}, created),
    undefined,
    "no time in it",
  );
});

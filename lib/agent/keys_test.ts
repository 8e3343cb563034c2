import assert from "node:assert/strict";
import { authenticateAgentKey, createAgentKey, KEY_CACHE_MS, revokeAgentKey } from "./keys.ts";

async function twoInstances() {
  const dir = await Deno.makeTempDir({ prefix: "parley-keys-" });
  const a = await Deno.openKv(`${dir}/k.kv`);
  const b = await Deno.openKv(`${dir}/k.kv`);
  return {
    a,
    b,
    close: async () => {
      a.close();
      b.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("a key revoked through this process is refused at once, even right after a use", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const r = await createAgentKey(kv, "u1", "bot");
    assert.ok(r.ok);
    const auth = `Bearer ${r.created.key}`;
    assert.equal((await authenticateAgentKey(kv, auth))?.userId, "u1");
    assert.equal((await authenticateAgentKey(kv, auth))?.userId, "u1"); // from the cache
    assert.deepEqual(await revokeAgentKey(kv, "u1", r.created.info.id), { ok: true });
    assert.equal(await authenticateAgentKey(kv, auth), null);
  } finally {
    kv.close();
  }
});

Deno.test("a lookup in flight during a revocation does not cache the revoked key", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const r = await createAgentKey(kv, "u1", "bot");
    assert.ok(r.ok);
    const auth = `Bearer ${r.created.key}`;
    await authenticateAgentKey(kv, auth); // touched: later lookups read without a write
    const [inFlight, revoked] = await Promise.all([
      authenticateAgentKey(kv, auth, Date.now() + 1), // started before the revoke commits
      revokeAgentKey(kv, "u1", r.created.info.id),
    ]);
    assert.ok(revoked.ok);
    void inFlight; // served or not: it raced the revocation
    assert.equal(await authenticateAgentKey(kv, auth), null);
  } finally {
    kv.close();
  }
});

Deno.test(`a key revoked through another instance is refused here within KEY_CACHE_MS (${KEY_CACHE_MS} ms)`, async () => {
  const { a, b, close } = await twoInstances();
  try {
    const r = await createAgentKey(a, "u1", "bot");
    assert.ok(r.ok);
    const auth = `Bearer ${r.created.key}`;
    assert.ok(await authenticateAgentKey(a, auth));
    assert.ok(await authenticateAgentKey(a, auth));
    const revokedAt = performance.now();
    assert.deepEqual(await revokeAgentKey(b, "u1", r.created.info.id), { ok: true });
    // Still served from this instance's cache, at most until KEY_CACHE_MS has passed.
    while (await authenticateAgentKey(a, auth)) {
      assert.ok(performance.now() - revokedAt <= KEY_CACHE_MS + 50, "served past the bound");
      await new Promise((ok) => setTimeout(ok, 50));
    }
    assert.equal(await authenticateAgentKey(a, auth), null);
  } finally {
    await close();
  }
});

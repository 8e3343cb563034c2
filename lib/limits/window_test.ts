/** Rate limits in KV: fixed windows, per key, with retry-after. */
import assert from "node:assert/strict";
import { hitRateLimit, rateLimitHeaders } from "@/lib/limits/window.ts";
import { openKv } from "@/lib/kv/open.ts";

Deno.test("hitRateLimit() refuses the request over the limit until the window turns", async () => {
  const kv = await openKv(":memory:");
  try {
    const t0 = 60_000 * 16_666_667 + 20_000; // 20 s into a minute window
    for (let i = 1; i <= 8; i++) {
      const r = await hitRateLimit(kv, "debate", "u1:1.2.3.4", 8, 60_000, t0);
      assert.equal(r.allowed, true);
      assert.equal(r.remaining, 8 - i);
    }
    const ninth = await hitRateLimit(kv, "debate", "u1:1.2.3.4", 8, 60_000, t0 + 1000);
    assert.equal(ninth.allowed, false);
    assert.equal(ninth.retryAfter, 39);
    assert.equal(rateLimitHeaders(ninth)["retry-after"], "39");
    const other = await hitRateLimit(kv, "debate", "u2:1.2.3.4", 8, 60_000, t0);
    assert.equal(other.allowed, true, "another key has its own budget");
    const next = await hitRateLimit(kv, "debate", "u1:1.2.3.4", 8, 60_000, t0 + 40_000);
    assert.equal(next.allowed, true, "a new window starts fresh");
  } finally {
    kv.close();
  }
});

Deno.test("hitRateLimit() counts all concurrent hits", async () => {
  const kv = await openKv(":memory:");
  try {
    const now = 5_000_000_000_000;
    const results = await Promise.all(
      Array.from({ length: 30 }, () => hitRateLimit(kv, "b", "k", 10, 60_000, now)),
    );
    assert.equal(results.filter((r) => r.allowed).length, 10);
  } finally {
    kv.close();
  }
});

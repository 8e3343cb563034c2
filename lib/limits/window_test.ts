/** Rate limits in KV: a sliding-window log per key, with retry-after. */
import assert from "node:assert/strict";
import {
  type HitLog,
  hitRateLimit,
  loggedBytes,
  loggedTimes,
  rateLimitHeaders,
} from "@/lib/limits/window.ts";
import { keys } from "@/lib/kv/keys.ts";
import { openKv } from "@/lib/kv/open.ts";

Deno.test("hitRateLimit() refuses the hit over the limit until the oldest leaves the window", async () => {
  const kv = await openKv(":memory:");
  try {
    const t0 = 60_000 * 16_666_667 + 20_000; // 20 s into a calendar minute
    for (let i = 1; i <= 8; i++) {
      const r = await hitRateLimit(kv, "debate", "u1:1.2.3.4", 8, 60_000, t0);
      assert.equal(r.allowed, true);
      assert.equal(r.remaining, 8 - i);
    }
    const ninth = await hitRateLimit(kv, "debate", "u1:1.2.3.4", 8, 60_000, t0 + 1000);
    assert.equal(ninth.allowed, false);
    assert.equal(ninth.retryAfter, 59, "the eight leave the window 60 s after they came");
    assert.equal(rateLimitHeaders(ninth)["retry-after"], "59");
    const other = await hitRateLimit(kv, "debate", "u2:1.2.3.4", 8, 60_000, t0);
    assert.equal(other.allowed, true, "another key has its own budget");
    const turned = await hitRateLimit(kv, "debate", "u1:1.2.3.4", 8, 60_000, t0 + 40_000);
    assert.equal(turned.allowed, false, "the calendar minute turning frees nothing");
    const later = await hitRateLimit(kv, "debate", "u1:1.2.3.4", 8, 60_000, t0 + 60_000);
    assert.equal(later.allowed, true, "once they left the window there is room");
  } finally {
    kv.close();
  }
});

Deno.test("hitRateLimit() refuses a burst across a window edge: never more than N in any window", async () => {
  const kv = await openKv(":memory:");
  try {
    const t0 = 1_800_000_000_000;
    // 60 at t = 59.9 s, all accepted …
    for (let i = 0; i < 60; i++) {
      assert.equal((await hitRateLimit(kv, "agent", "k", 60, 60_000, t0 + 59_900)).allowed, true);
    }
    // … then at t = 60.1 s (a fixed window would have reset) the 61st is refused.
    const r = await hitRateLimit(kv, "agent", "k", 60, 60_000, t0 + 60_100);
    assert.equal(r.allowed, false);
    assert.equal(r.retryAfter, 60);
    // Room again only 60 s after the burst.
    assert.equal((await hitRateLimit(kv, "agent", "k", 60, 60_000, t0 + 119_899)).allowed, false);
    assert.equal((await hitRateLimit(kv, "agent", "k", 60, 60_000, t0 + 119_901)).allowed, true);
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

Deno.test("hitRateLimit() reads a log written as a plain array and writes it back packed", async () => {
  const kv = await openKv(":memory:");
  try {
    const now = 1_800_000_000_000;
    const key = keys.rateLimitLog("post_votes", "u-old");
    // A log as stores before the compact times hold it: one time out of the window, two in.
    await kv.set(key, { times: [now - 70_000, now - 30_000, now - 10_000] });
    const third = await hitRateLimit(kv, "post_votes", "u-old", 3, 60_000, now);
    assert.equal(third.allowed, true);
    assert.equal(third.remaining, 0, "the two times in the window and this one");
    const log = (await kv.get<HitLog>(key)).value!;
    assert.ok(log instanceof Uint8Array, "written as packed bytes");
    assert.deepEqual(loggedTimes(log), [now - 30_000, now - 10_000, now]);
    const fourth = await hitRateLimit(kv, "post_votes", "u-old", 3, 60_000, now + 1000);
    assert.equal(fourth.allowed, false);
    assert.equal(
      fourth.retryAfter,
      29,
      "the oldest time in the window leaves it 30 s after it came",
    );
  } finally {
    kv.close();
  }
});

Deno.test("hitRateLimit() keeps a log inside the window as it was, and counts a time ahead of now as now", async () => {
  const kv = await openKv(":memory:");
  try {
    const now = 1_800_000_000_000;
    const key = keys.rateLimitLog("post_votes", "u-log");
    // Out of order (two instances' hits may commit so): kept in its order, whole.
    const inWindow = [now - 50_000, now - 20_000, now - 40_000];
    await kv.set(key, { times: new Float64Array(inWindow) });
    const hit = await hitRateLimit(kv, "post_votes", "u-log", 5, 60_000, now);
    assert.equal(hit.remaining, 1);
    assert.deepEqual(loggedTimes((await kv.get<HitLog>(key)).value), [...inWindow, now]);
    // A time from a clock that ran ahead counts as now: it stays in and leaves with now's.
    await kv.set(key, { times: new Float64Array([now - 70_000, now + 90_000]) });
    const ahead = await hitRateLimit(kv, "post_votes", "u-log", 5, 60_000, now);
    assert.equal(ahead.remaining, 3);
    assert.deepEqual(loggedTimes((await kv.get<HitLog>(key)).value), [now, now]);
  } finally {
    kv.close();
  }
});

Deno.test("hitRateLimit() keeps a busy log small and exact: 600 hits a few seconds apart", async () => {
  const kv = await openKv(":memory:");
  try {
    const t0 = 1_800_000_000_000;
    const key = keys.rateLimitLog("post_votes", "u-busy");
    const hits: number[] = [];
    for (let i = 0; i < 600; i++) {
      const at = t0 + i * 5_000 + (i % 7); // 5 s apart, with odd milliseconds
      assert.equal(
        (await hitRateLimit(kv, "post_votes", "u-busy", 600, 3_600_000, at)).allowed,
        true,
      );
      hits.push(at);
    }
    const log = (await kv.get<HitLog>(key)).value!;
    assert.deepEqual(loggedTimes(log), hits, "every time kept to the millisecond");
    assert.ok(
      log instanceof Uint8Array && log.length <= 1 + 6 + 2 * 599,
      `${loggedBytes(log)} bytes`,
    );
    const over = await hitRateLimit(kv, "post_votes", "u-busy", 600, 3_600_000, t0 + 3_000_000);
    assert.equal(over.allowed, false);
    // The first hit leaves the window an hour after it came: 600 s after the refused one.
    assert.equal(over.retryAfter, 600);
    const freed = await hitRateLimit(kv, "post_votes", "u-busy", 600, 3_600_000, t0 + 3_600_001);
    assert.equal(freed.allowed, true, "one slot frees a millisecond after the first hit's hour");
  } finally {
    kv.close();
  }
});

Deno.test("hitRateLimit() reads a log written as a Float64Array, and keeps one for times that do not pack", async () => {
  const kv = await openKv(":memory:");
  try {
    const now = 1_800_000_000_000;
    const key = keys.rateLimitLog("agent", "k-old");
    await kv.set(key, { times: new Float64Array([now - 20_000, now - 10_000]) });
    assert.equal((await hitRateLimit(kv, "agent", "k-old", 3, 60_000, now)).remaining, 0);
    assert.equal((await hitRateLimit(kv, "agent", "k-old", 3, 60_000, now)).allowed, false);
    assert.deepEqual(loggedTimes((await kv.get<HitLog>(key)).value), [
      now - 20_000,
      now - 10_000,
      now,
    ]);
    // A fractional clock (a test's or a polyfill's) is kept exactly, unpacked.
    const frac = keys.rateLimitLog("agent", "k-frac");
    await hitRateLimit(kv, "agent", "k-frac", 3, 60_000, now + 0.5);
    const kept = (await kv.get<HitLog>(frac)).value!;
    assert.ok(!(kept instanceof Uint8Array) && kept.times instanceof Float64Array);
    assert.deepEqual(loggedTimes(kept), [now + 0.5]);
    assert.equal((await hitRateLimit(kv, "agent", "k-frac", 3, 60_000, now + 1)).remaining, 1);
  } finally {
    kv.close();
  }
});

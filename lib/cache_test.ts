/** The bounded LRU/TTL map and the per-store helper every process-local cache uses. */
import assert from "node:assert/strict";
import { approximateBytes, flatString, LruCache, perStore } from "@/lib/cache.ts";

Deno.test("LruCache drops the least recently used entry first: a lookup makes an entry recent", () => {
  const cache = new LruCache<string, number>({ maxEntries: 2 });
  cache.set("a", 1);
  cache.set("b", 2);
  assert.equal(cache.get("a"), 1);
  cache.set("c", 3);
  assert.equal(cache.size, 2);
  assert.equal(cache.get("b"), undefined, "b was the least recently used");
  assert.equal(cache.get("a"), 1);
  assert.equal(cache.get("c"), 3);
  assert.deepEqual(cache.stats, { hits: 3, misses: 1 });
});

Deno.test("LruCache never evicts an entry hit at least once per half a cache of insertions", () => {
  const cache = new LruCache<string, number>({ maxEntries: 10 });
  for (let i = 0; i < 10; i++) cache.set(`k${i}`, i);
  for (let i = 0; i < 100; i++) {
    if (i % 5 === 0) assert.equal(cache.get("k0"), 0, `hot entry still there after ${i}`);
    cache.set(`new${i}`, i);
  }
  assert.equal(cache.size, 10);
  assert.equal(cache.get("k0"), 0);
  assert.equal(cache.get("k1"), undefined, "a cold entry went");
});

Deno.test("LruCache keeps peek() out of the order and the stats; storing again makes an entry recent", () => {
  const cache = new LruCache<string, number>({ maxEntries: 2 });
  cache.set("a", 1);
  cache.set("b", 2);
  assert.equal(cache.peek("a"), 1);
  cache.set("c", 3);
  assert.equal(cache.peek("a"), undefined, "peek did not save a");
  assert.deepEqual(cache.stats, { hits: 0, misses: 0 });
  cache.set("b", 20);
  cache.set("d", 4);
  assert.equal(cache.peek("b"), 20);
  assert.equal(cache.peek("c"), undefined);
});

Deno.test("LruCache stays under maxSize and refuses an entry over maxEntrySize without flushing the rest", () => {
  const cache = new LruCache<string, string>({
    maxEntries: 100,
    maxSize: 100,
    maxEntrySize: 30,
    sizeOf: (k, v) => k.length + v.length,
  });
  for (let i = 0; i < 10; i++) cache.set(`k${i}`, "x".repeat(18)); // 20 each
  assert.equal(cache.size, 5);
  assert.equal(cache.totalSize, 100);
  assert.equal(cache.get("k4"), undefined);
  assert.equal(cache.get("k5"), "x".repeat(18));
  assert.equal(cache.set("big", "y".repeat(40)), "y".repeat(40), "set returns the value");
  assert.equal(cache.get("big"), undefined);
  assert.equal(cache.size, 5);
  cache.set("k5", "too long for one entry".repeat(2));
  assert.equal(cache.get("k5"), undefined, "a value too big replaces the old one with nothing");
  assert.equal(cache.totalSize, 80);
  assert.equal(cache.delete("k6"), true);
  assert.equal(cache.delete("k6"), false);
  assert.equal(cache.totalSize, 60);
  cache.clear();
  assert.equal(cache.size, 0);
  assert.equal(cache.totalSize, 0);
});

Deno.test("LruCache entries expire after the cache's TTL or the one given to set()", () => {
  let now = 1000;
  const cache = new LruCache<string, string>({ maxEntries: 10, ttlMs: 50, now: () => now });
  cache.set("short", "s", 10);
  cache.set("default", "d");
  now += 10;
  assert.equal(cache.get("short"), undefined, "expired at exactly its TTL");
  assert.equal(cache.peek("default"), "d");
  now += 39;
  assert.equal(cache.get("default"), "d");
  now += 1;
  assert.equal(cache.get("default"), undefined);
  assert.equal(cache.size, 0, "an expired entry looked up is dropped");
});

Deno.test("LruCache lets go of expired entries at the old end when it stores, not when its bounds fill", () => {
  let now = 0;
  const cache = new LruCache<string, string>({
    maxEntries: 1000,
    maxSize: 1 << 20,
    sizeOf: (_k, v) => v.length,
    now: () => now,
  });
  for (let i = 0; i < 100; i++) cache.set(`page${i}`, "x".repeat(1000), 1000);
  assert.equal(cache.totalSize, 100_000);
  now += 1000;
  cache.set("next", "y", 1000);
  assert.equal(cache.size, 1, "the hundred expired pages went with the next store");
  assert.equal(cache.totalSize, 1);
  cache.set("kept", "z");
  now += 5000;
  cache.set("later", "w");
  assert.equal(cache.peek("kept"), "z", "an entry without a TTL stays");
  assert.equal(cache.size, 2, "the expired entry in front of it went");
});

Deno.test("LruCache.resize() counts a size known later and restores the bounds, the entry itself included", () => {
  const cache = new LruCache<string, string>({ maxEntries: 10, maxSize: 100, maxEntrySize: 50 });
  for (const k of ["a", "b", "c"]) cache.set(k, k);
  assert.equal(cache.totalSize, 0);
  assert.ok(cache.resize("a", 40));
  assert.ok(cache.resize("b", 40));
  assert.equal(cache.totalSize, 80);
  assert.ok(cache.resize("c", 40), "c stays; the oldest goes");
  assert.equal(cache.peek("a"), undefined);
  assert.equal(cache.totalSize, 80);
  assert.equal(cache.resize("b", 51), false, "over maxEntrySize: dropped");
  assert.equal(cache.peek("b"), undefined);
  assert.equal(cache.totalSize, 40);
  assert.equal(cache.resize("gone", 1), false);
});

Deno.test("approximateBytes() counts strings at two bytes a code unit and every container's entries", () => {
  assert.equal(approximateBytes("abc"), 22);
  assert.equal(approximateBytes({ title: "Why KV?", votes: 3 }), 70);
  assert.equal(approximateBytes([1, "a"]), 16 + (8 + 8) + (8 + 18));
  assert.equal(approximateBytes(new Map([["k", 1]])), 16 + 16 + 18 + 8);
  const long = { messages: Array.from({ length: 30 }, () => ({ content: "x".repeat(10_000) })) };
  assert.ok(approximateBytes(long) > 30 * 20_000, "thirty long answers count their text");
  const deep: Record<string, unknown> = {};
  let at = deep;
  for (let i = 0; i < 100; i++) at = (at.next = {}) as Record<string, unknown>;
  assert.ok(approximateBytes(deep) < 1000, "depth is bounded");
});

Deno.test("flatString() returns the same text", () => {
  let html = "";
  for (let i = 0; i < 1000; i++) html += `<li>${i}</li>`;
  const flat = flatString(html);
  assert.equal(flat, html);
  assert.equal(flat.length, html.length);
  assert.equal(flatString("12"), "12");
});

Deno.test("perStore() makes one value per store on first use, with the first call's arguments", async () => {
  const a = await Deno.openKv(":memory:");
  const b = await Deno.openKv(":memory:");
  try {
    let made = 0;
    const counters = perStore((_kv, start: number) => ({ n: start, id: ++made }));
    counters(a, 5).n++;
    assert.equal(counters(a, 100).n, 6, "later arguments are ignored");
    assert.equal(counters(b, 0).n, 0, "another store has its own");
    assert.equal(made, 2);
    const flags = perStore(() => undefined);
    assert.equal(flags(a), undefined);
  } finally {
    a.close();
    b.close();
  }
});

/** The home feed's read cache: shared loads, expiry, invalidation, one cache per store. */
import assert from "node:assert/strict";
import {
  cachedRead,
  invalidateReads,
  MAX_BYTES,
  MAX_ENTRIES,
  readCacheBytes,
} from "@/lib/community/read_cache.ts";
import { openKv } from "@/lib/kv/open.ts";

Deno.test("cachedRead() shares one load among concurrent reads and reuses the value until the TTL passes", async () => {
  const kv = await openKv(":memory:");
  try {
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 5));
      return loads;
    };
    const values = await Promise.all(
      Array.from({ length: 20 }, () => cachedRead(kv, "k", 50, load)),
    );
    assert.deepEqual(new Set(values), new Set([1]));
    assert.equal(await cachedRead(kv, "k", 50, load), 1);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(await cachedRead(kv, "k", 50, load), 2, "expired entries load again");
  } finally {
    kv.close();
  }
});

Deno.test("invalidateReads() drops only that store's entries; stores never share values", async () => {
  const a = await openKv(":memory:");
  const b = await openKv(":memory:");
  try {
    assert.equal(await cachedRead(a, "k", 10_000, () => Promise.resolve("a1")), "a1");
    assert.equal(await cachedRead(b, "k", 10_000, () => Promise.resolve("b1")), "b1");
    invalidateReads(a);
    assert.equal(await cachedRead(a, "k", 10_000, () => Promise.resolve("a2")), "a2");
    assert.equal(await cachedRead(b, "k", 10_000, () => Promise.resolve("b2")), "b1");
  } finally {
    a.close();
    b.close();
  }
});

Deno.test("cachedRead() does not cache a failed load and keeps the map bounded", async () => {
  const kv = await openKv(":memory:");
  try {
    await assert.rejects(cachedRead(kv, "k", 10_000, () => Promise.reject(new Error("down"))));
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(await cachedRead(kv, "k", 10_000, () => Promise.resolve("up")), "up");
    for (let i = 0; i < MAX_ENTRIES + 50; i++) {
      await cachedRead(kv, `q${i}`, 10_000, () => Promise.resolve(i));
    }
    // The oldest entries made room: the first query loads afresh.
    assert.equal(await cachedRead(kv, "q0", 10_000, () => Promise.resolve("fresh")), "fresh");
  } finally {
    kv.close();
  }
});

Deno.test("cachedRead() holds at most MAX_BYTES of loaded values, counted once each load resolves", async () => {
  const kv = await openKv(":memory:");
  try {
    // Thread-page-shaped values: 30 answers of 5,000 characters (~300 KB each).
    const page = (i: number) => ({
      id: `q${i}`,
      messages: Array.from({ length: 30 }, (_, j) => ({ id: `m${j}`, content: "x".repeat(5_000) })),
    });
    let loads = 0;
    for (let i = 0; i < MAX_ENTRIES; i++) {
      await cachedRead(kv, `thread:${i}`, 60_000, () => Promise.resolve(page(loads++)));
    }
    // Let the last load's size be counted.
    await new Promise((r) => setTimeout(r, 0));
    assert.ok(readCacheBytes(kv) > MAX_BYTES / 2, `${readCacheBytes(kv)} bytes held`);
    assert.ok(readCacheBytes(kv) <= MAX_BYTES, `${readCacheBytes(kv)} bytes held`);
    assert.equal(loads, MAX_ENTRIES);
    const newest = await cachedRead(kv, `thread:${MAX_ENTRIES - 1}`, 60_000, () => {
      loads++;
      return Promise.resolve(page(-1));
    });
    assert.equal(newest.id, `q${MAX_ENTRIES - 1}`, "the newest page is still held");
    const oldest = await cachedRead(kv, "thread:0", 60_000, () => {
      loads++;
      return Promise.resolve(page(-1));
    });
    assert.equal(oldest.id, "q-1", "the oldest page went to keep the bound");
  } finally {
    kv.close();
  }
});

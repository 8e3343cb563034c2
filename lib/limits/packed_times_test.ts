/** Packed rate-limit times: exact to the millisecond, small, any order. */
import assert from "node:assert/strict";
import { packTimes, unpackTimes } from "@/lib/limits/packed_times.ts";

Deno.test("packTimes() round-trips times in any order, negative differences included", () => {
  const now = 1_800_000_000_000;
  const times = [now - 3_599_999, now - 10, now - 20, now, now + 90_000, now + 90_000, 0, -5];
  const bytes = packTimes(times)!;
  assert.deepEqual([...unpackTimes(bytes)!], times);
  assert.deepEqual([...unpackTimes(packTimes([])!)!], []);
});

Deno.test("packTimes() takes 1 byte for hits ms apart and 2 for hits seconds apart", () => {
  const now = 1_800_000_000_000;
  const crowd = Array.from({ length: 600 }, (_, i) => now + i * 50);
  const person = Array.from({ length: 600 }, (_, i) => now + i * 6_000 + (i % 3));
  // The tag, 6 bytes for the first time, then one varint per difference.
  assert.equal(packTimes(crowd)!.length, 1 + 6 + 599);
  assert.equal(packTimes(person)!.length, 1 + 6 + 2 * 599);
  assert.deepEqual([...unpackTimes(packTimes(person)!)!], person);
});

Deno.test("packTimes() packs only the first `count`, and unpackTimes() leaves spare slots", () => {
  const times = new Float64Array([10, 20, 30, 0]);
  const out = unpackTimes(packTimes(times, 3)!, 2)!;
  assert.deepEqual([...out], [10, 20, 30, 0, 0]);
});

Deno.test("packTimes() refuses what it cannot keep exactly; unpackTimes() refuses foreign bytes", () => {
  assert.equal(packTimes([1_800_000_000_000.5]), null);
  assert.equal(packTimes([2 ** 51]), null);
  assert.equal(packTimes([Number.NaN]), null);
  assert.equal(unpackTimes(new Uint8Array([])), null);
  assert.equal(unpackTimes(new Uint8Array([9, 1, 2])), null);
});

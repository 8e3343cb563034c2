/** compareKeys() agrees with the order a real KV store lists keys in. */
import assert from "node:assert/strict";
import { compareKeys } from "./key_order.ts";

Deno.test("compareKeys() sorts mixed keys exactly as kv.list returns them", async () => {
  const kv = await Deno.openKv(":memory:");
  const parts: Deno.KvKeyPart[] = [
    true,
    false,
    1n,
    -1n,
    0,
    -0,
    -1.5,
    2,
    Infinity,
    -Infinity,
    NaN,
    "",
    "a",
    "a\u0000",
    "ab",
    "b",
    "é",
    "\uffff",
    "\u{1F600}",
    "\ue000",
    new Uint8Array([]),
    new Uint8Array([1]),
    new Uint8Array([0, 2]),
  ];
  const written: Deno.KvKey[] = [];
  for (const p of parts) {
    written.push(["k", p], ["k", p, "x"], ["k", "a", p]);
  }
  for (const key of written) await kv.set(key, 1);
  const listed: Deno.KvKey[] = [];
  for await (const e of kv.list({ prefix: ["k"] })) listed.push(e.key);
  kv.close();
  // Shuffled, then sorted with compareKeys: the same sequence KV produced.
  const shuffled = [...listed].sort(() => Math.random() - 0.5);
  const sorted = shuffled.sort(compareKeys);
  assert.equal(sorted.length, listed.length);
  sorted.forEach((key, i) => assert.deepEqual(key, listed[i], `position ${i}`));
});

import assert from "node:assert/strict";
import { decodeVector, dot, encodeVector, l2Normalize } from "./vectors.ts";

Deno.test("a normalized vector has length 1 and keeps its direction; zero stays zero", () => {
  const v = l2Normalize([3, 4, 0]);
  assert.ok(Math.abs(dot(v, v) - 1) < 1e-6);
  assert.ok(Math.abs(v[0] - 0.6) < 1e-6 && Math.abs(v[1] - 0.8) < 1e-6);
  assert.deepEqual([...l2Normalize([0, 0])], [0, 0]);
});

Deno.test("the stored bytes are 4 per dimension, little-endian, and read back exactly", () => {
  const v = l2Normalize(Array.from({ length: 256 }, (_, i) => Math.sin(i + 1)));
  const bytes = encodeVector(v);
  assert.equal(bytes.byteLength, 1024);
  assert.equal(new DataView(bytes.buffer).getFloat32(4, true), v[1]);
  assert.deepEqual(decodeVector(bytes), v);
  // A view into a larger buffer at an odd offset reads the same values.
  const padded = new Uint8Array(bytes.byteLength + 3);
  padded.set(bytes, 3);
  assert.deepEqual(decodeVector(padded.subarray(3)), v);
});

Deno.test("vectors of different lengths have no similarity", () => {
  assert.equal(dot([1, 0], [1, 0, 0]), 0);
});

Deno.test("stored bytes survive a KV round trip as a Uint8Array", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const v = l2Normalize([1, 2, 3, 4]);
    await kv.set(["v"], { v: encodeVector(v) });
    const got = await kv.get<{ v: Uint8Array }>(["v"]);
    assert.ok(got.value!.v instanceof Uint8Array);
    assert.deepEqual(decodeVector(got.value!.v), v);
  } finally {
    kv.close();
  }
});

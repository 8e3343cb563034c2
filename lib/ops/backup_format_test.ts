/** The backup file's tagged text encoding. */
import assert from "node:assert/strict";
import {
  BackupFormatError,
  decodeKey,
  decodeValue,
  encodeKey,
  encodeValue,
  entryLine,
  headerLine,
  parseEntryLine,
  parseHeader,
  parseTrailer,
  trailerLine,
} from "./backup_format.ts";

/** Encode, write as JSON text, parse and decode: what a backup and a restore do. */
function roundTrip(value: unknown): unknown {
  return decodeValue(JSON.parse(JSON.stringify(encodeValue(value))));
}

Deno.test("encodeValue() round-trips every scalar a KV value can hold", () => {
  for (const v of ["", "text ✓ \u2028 \n", 0, 1.5, -7, Number.MAX_VALUE, true, false, null]) {
    assert.deepEqual(roundTrip(v), v);
  }
  assert.ok(Object.is(roundTrip(-0), -0), "-0 stays -0");
  assert.ok(Number.isNaN(roundTrip(NaN)), "NaN stays NaN");
  assert.equal(roundTrip(Infinity), Infinity);
  assert.equal(roundTrip(-Infinity), -Infinity);
  assert.equal(roundTrip(undefined), undefined);
  assert.equal(roundTrip(-(2n ** 70n)), -(2n ** 70n));
});

Deno.test("encodeValue() keeps a lone surrogate, which UTF-8 text alone would replace", () => {
  const s = "a\ud800b";
  const line = entryLine(["k"], s);
  assert.ok(!line.includes("\ud800"), "escaped in the line");
  assert.equal(parseEntryLine(line).value, s);
});

Deno.test("encodeValue() round-trips Deno.KvU64, bytes, dates and typed arrays", () => {
  const u64 = roundTrip(new Deno.KvU64(2n ** 64n - 1n));
  assert.ok(u64 instanceof Deno.KvU64);
  assert.equal(u64.value, 2n ** 64n - 1n);

  const bytes = roundTrip(new Uint8Array([0, 1, 255, 62, 63]));
  assert.ok(bytes instanceof Uint8Array);
  assert.deepEqual([...bytes], [0, 1, 255, 62, 63]);

  const date = roundTrip(new Date(1_700_000_000_123));
  assert.ok(date instanceof Date);
  assert.equal(date.getTime(), 1_700_000_000_123);
  assert.ok(
    Number.isNaN((roundTrip(new Date(NaN)) as Date).getTime()),
    "an invalid date stays one",
  );

  const f64 = roundTrip(new Float64Array([1.5, -0, NaN]));
  assert.ok(f64 instanceof Float64Array);
  assert.ok(Object.is(f64[1], -0) && Number.isNaN(f64[2]));
  // A view into part of a larger buffer keeps only its own bytes.
  const i16 = roundTrip(new Int16Array(new Int16Array([9, -2, 3]).buffer, 2, 2));
  assert.deepEqual([...(i16 as Int16Array)], [-2, 3]);
  const buffer = roundTrip(new Uint8Array([4, 5]).buffer);
  assert.ok(buffer instanceof ArrayBuffer);
  assert.deepEqual([...new Uint8Array(buffer)], [4, 5]);
});

Deno.test("encodeValue() round-trips nested objects, arrays, maps, sets and regexps", () => {
  const value = {
    id: "q_1",
    tags: ["a", "b"],
    nested: { deeper: { n: -0, list: [1, { x: undefined }, [new Deno.KvU64(5n)]] } },
    at: new Date(0),
    map: new Map<unknown, unknown>([["k", 1], [2, new Set([1, "two"])]]),
    re: /a+b/gi,
    ["__proto__"]: "a field, not a prototype",
    empty: {},
  };
  const back = roundTrip(value) as typeof value;
  assert.deepEqual(back, value);
  assert.ok(Object.is(back.nested.deeper.n, -0));
  assert.equal(Object.getPrototypeOf(back), Object.prototype);
  assert.ok(Object.hasOwn(back, "__proto__"));
  assert.ok(Object.hasOwn(back.nested.deeper.list[1] as object, "x"), "an undefined field stays");
  assert.equal((back.nested.deeper.list[2] as Deno.KvU64[])[0].value, 5n);
  assert.equal(back.re.flags, "gi");
});

Deno.test("encodeValue() keeps an array's holes without spelling out its length", () => {
  const sparse: unknown[] = [];
  sparse[3] = "x";
  sparse[2 ** 31] = "far";
  const encoded = JSON.stringify(encodeValue(sparse));
  assert.ok(encoded.length < 100, encoded);
  const back = roundTrip(sparse) as unknown[];
  assert.equal(back.length, sparse.length);
  assert.equal(back[3], "x");
  assert.ok(!(0 in back), "a hole stays a hole");
});

Deno.test("encodeValue() refuses what it cannot keep instead of dropping it", () => {
  class Custom {
    x = 1;
  }
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const named = Object.assign([1], { extra: 2 });
  for (const v of [new Custom(), new Error("e"), cyclic, named, Symbol("s"), () => 1]) {
    assert.throws(() => encodeValue(v), BackupFormatError);
  }
  // The same object twice (not a cycle) is copied twice.
  const shared = { n: 1 };
  assert.deepEqual(roundTrip([shared, shared]), [{ n: 1 }, { n: 1 }]);
});

Deno.test("decodeValue() refuses text that is not an encoding", () => {
  for (
    const t of [
      { bare: 1 },
      ["nope"],
      ["u64", "-1"],
      ["u64", String(2n ** 64n)],
      ["bigint", "1.5"],
      ["bytes", "***"],
      ["num", "7"],
      ["typed", "Function", ""],
      ["typed", "Int32Array", "AAA"],
      ["sparse", -1],
      ["object", []],
    ]
  ) {
    assert.throws(() => decodeValue(t as never), BackupFormatError, JSON.stringify(t));
  }
});

Deno.test("encodeKey() round-trips every key part type, a Uint8Array part included", () => {
  const key: Deno.KvKey = ["s", 1.5, -0, 12n, true, new Uint8Array([0, 7])];
  const back = decodeKey(JSON.parse(JSON.stringify(encodeKey(key))));
  assert.deepEqual(back, key);
  assert.ok(Object.is(back[2], -0));
  assert.throws(() => decodeKey([["date", 0]]), BackupFormatError);
  assert.throws(() => decodeKey("k"), BackupFormatError);
});

Deno.test("entry lines survive real KV: decoded values written and read back encode the same", async () => {
  const kv = await Deno.openKv(":memory:");
  const entries: [Deno.KvKey, unknown][] = [
    [["u64", new Uint8Array([1, 2])], new Deno.KvU64(42n)],
    [["obj", 1n], { at: new Date(5), n: NaN, z: -0, bytes: new Uint8Array([9]), m: new Map() }],
    [["list", false], [1, "two", null, undefined]],
  ];
  for (const [key, value] of entries) {
    const { key: k, value: v } = parseEntryLine(entryLine(key, value));
    await kv.set(k, v);
  }
  for (const [key, value] of entries) {
    const read = await kv.get(key);
    assert.equal(entryLine(read.key, read.value), entryLine(key, value));
  }
  kv.close();
});

Deno.test("parseEntryLine() names what is wrong with a bad line", () => {
  assert.throws(() => parseEntryLine("{"), /not JSON/);
  assert.throws(() => parseEntryLine("[1]"), /\[key, value\]/);
});

Deno.test("header and trailer lines parse back, and nothing else parses as them", () => {
  const h = { createdAt: "2026-01-02T03:04:05.000Z", build: "b1", deno: "2.9.6" };
  assert.deepEqual(parseHeader(headerLine(h)), {
    format: "parley-kv-backup",
    version: 1,
    entries: "in the trailer",
    ...h,
  });
  assert.equal(parseHeader('{"format":"parley-kv-backup","version":2}'), null);
  assert.equal(parseHeader("not json"), null);
  const t = { entries: 12, sha256: "ab".repeat(32) };
  assert.deepEqual(parseTrailer(trailerLine(t)), t);
  assert.equal(parseTrailer(entryLine(["k"], 1)), null);
  assert.equal(parseTrailer('{"end":"parley-kv-backup","entries":-1,"sha256":"x"}'), null);
});

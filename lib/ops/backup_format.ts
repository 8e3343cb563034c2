/**
 * The backup file format: a tagged text encoding of KV keys and values that any Deno can
 * read (KV itself stores values in V8's serialization format, which an older V8 cannot
 * read: docs/decisions.md#store-version), and the lines of the file.
 *
 * A backup is gzip-compressed UTF-8 text, one JSON document a line:
 *
 * 1. the header `{"format":"parley-kv-backup","version":1,"createdAt",…,"entries":"in the trailer"}`
 *    (the key count is only known at the end, so it is written there: a backup streams);
 * 2. one line per entry, `[key, value]`, each in the tagged encoding below;
 * 3. the trailer `{"end":"parley-kv-backup","entries":N,"sha256":"…"}`: the number of entry
 *    lines and the SHA-256 of every byte before the trailer (header and entry lines, each
 *    with its `\n`), so a truncated or altered file is refused.
 *
 * The tagged encoding maps every value to JSON: a string, a finite number other than -0, a
 * boolean or null is itself; everything else is an array whose first item is a tag:
 * `["num","NaN"|"Infinity"|"-Infinity"|"-0"]`, `["undefined"]`, `["bigint","123"]`,
 * `["u64","123"]` (`Deno.KvU64`), `["bytes",base64url]` (`Uint8Array`),
 * `["typed",name,base64url]` (other typed arrays, `DataView`), `["buffer",base64url]`
 * (`ArrayBuffer`), `["date",ms]`, `["regexp",source,flags]`, `["array",…items]`,
 * `["sparse",length,[index,item]…]` (arrays with holes), `["object",{name: item}]`,
 * `["map",[key,item]…]`, `["set",…items]`. A key is an array of its encoded parts.
 * Values that V8 could store but Parley never writes (class instances come back from KV as
 * plain objects already; errors, boxed primitives, cycles) are refused loudly, never
 * dropped. Shared references are copied, not shared, after a round trip.
 *
 * @module
 */
import { z } from "zod";
import { base64url, fromBase64url } from "../ids.ts";

/** The `format` of the header line. */
export const BACKUP_FORMAT = "parley-kv-backup";
/** The version of the format this module writes and reads. */
export const BACKUP_FORMAT_VERSION = 1;

/** A value in the tagged encoding (what JSON carries). */
export type Tagged = string | number | boolean | null | Tagged[] | { [name: string]: Tagged };

/** Raised for a value that cannot be encoded, or text that is not a valid encoding. */
export class BackupFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupFormatError";
  }
}

const TYPED_ARRAYS = {
  Int8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
  DataView,
} as const;
type TypedName = keyof typeof TYPED_ARRAYS;

function encodeNumber(n: number): Tagged {
  if (Number.isFinite(n) && !Object.is(n, -0)) return n;
  return ["num", Object.is(n, -0) ? "-0" : String(n)];
}

function viewBytes(v: ArrayBufferView): Uint8Array {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}

function describe(v: unknown): string {
  if (v === null || typeof v !== "object") return typeof v;
  return Object.prototype.toString.call(v).slice(8, -1);
}

/**
 * Encode a value as tagged JSON (see the module doc).
 *
 * @example
 * ```ts
 * encodeValue({ n: new Deno.KvU64(3n), at: new Date(0) });
 * // ["object", { n: ["u64", "3"], at: ["date", 0] }]
 * ```
 */
export function encodeValue(value: unknown): Tagged {
  return encodeIn(value, new Set());
}

function encodeIn(v: unknown, path: Set<object>): Tagged {
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      return encodeNumber(v);
    case "bigint":
      return ["bigint", v.toString()];
    case "undefined":
      return ["undefined"];
  }
  if (v === null) return null;
  if (typeof v !== "object") throw new BackupFormatError(`cannot encode a ${typeof v}`);
  if (v instanceof Deno.KvU64) return ["u64", v.value.toString()];
  if (v instanceof Uint8Array) return ["bytes", base64url(v)];
  if (ArrayBuffer.isView(v)) {
    const name = v.constructor.name;
    if (!(name in TYPED_ARRAYS)) throw new BackupFormatError(`cannot encode a ${name}`);
    return ["typed", name, base64url(viewBytes(v))];
  }
  if (v instanceof ArrayBuffer) return ["buffer", base64url(new Uint8Array(v))];
  if (v instanceof Date) return ["date", encodeNumber(v.getTime())];
  if (v instanceof RegExp) return ["regexp", v.source, v.flags];
  if (path.has(v)) throw new BackupFormatError("cannot encode a value that contains itself");
  path.add(v);
  try {
    if (Array.isArray(v)) return encodeArray(v, path);
    if (v instanceof Map) {
      const out: Tagged[] = ["map"];
      for (const [k, item] of v) out.push([encodeIn(k, path), encodeIn(item, path)]);
      return out;
    }
    if (v instanceof Set) {
      const out: Tagged[] = ["set"];
      for (const item of v) out.push(encodeIn(item, path));
      return out;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      throw new BackupFormatError(`cannot encode a ${describe(v)}`);
    }
    const fields: { [name: string]: Tagged } = {};
    for (const name of Object.keys(v)) {
      // defineProperty, not assignment: a field named "__proto__" stays a field.
      Object.defineProperty(fields, name, {
        value: encodeIn((v as Record<string, unknown>)[name], path),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return ["object", fields];
  } finally {
    path.delete(v);
  }
}

function encodeArray(v: unknown[], path: Set<object>): Tagged {
  const names = Object.keys(v);
  if (names.length === v.length) {
    // Every own key is an index 0…length-1: a dense array (a named extra field would make
    // the counts differ, and is refused below).
    const out: Tagged[] = ["array"];
    for (let i = 0; i < v.length; i++) out.push(encodeIn(v[i], path));
    return out;
  }
  const out: Tagged[] = ["sparse", v.length];
  for (const name of names) {
    const i = Number(name);
    if (!Number.isInteger(i) || i < 0 || String(i) !== name) {
      throw new BackupFormatError(`cannot encode an array with a named field ("${name}")`);
    }
    out.push([i, encodeIn(v[i], path)]);
  }
  return out;
}

function fail(what: string): never {
  throw new BackupFormatError(`not a valid encoded value: ${what}`);
}

function bytesOf(text: unknown): Uint8Array {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text)) fail("bad base64url");
  try {
    return fromBase64url(text);
  } catch {
    fail("bad base64url");
  }
}

function decodeNumber(t: Tagged): number {
  if (typeof t === "number") return t;
  if (Array.isArray(t) && t[0] === "num" && t.length === 2) {
    switch (t[1]) {
      case "NaN":
        return NaN;
      case "Infinity":
        return Infinity;
      case "-Infinity":
        return -Infinity;
      case "-0":
        return -0;
    }
  }
  fail("a number");
}

/**
 * The items after the tag, decoded into a packed array. Built by `push`, not `map`: `map`
 * makes a holey array, which V8 serializes as a sparse one with every index written out, so
 * an array near KV's 64 KiB value limit would no longer fit once restored.
 */
function packed(t: Tagged[]): unknown[] {
  const out: unknown[] = [];
  for (let i = 1; i < t.length; i++) out.push(decodeValue(t[i]));
  return out;
}

function regexpOf(source: Tagged, flags: Tagged): RegExp {
  if (typeof source !== "string" || typeof flags !== "string") fail("a regexp");
  try {
    return new RegExp(source, flags);
  } catch {
    fail("a regexp");
  }
}

/** The longest array JavaScript has. */
const MAX_LENGTH = 2 ** 32 - 1;

function bigintOf(text: Tagged): bigint {
  if (typeof text !== "string" || !/^-?\d+$/.test(text)) fail("an integer");
  return BigInt(text);
}

/**
 * Decode tagged JSON back into the value {@link encodeValue} encoded; throws
 * {@link BackupFormatError} on anything else.
 *
 * @example
 * ```ts
 * const v = decodeValue(["u64", "3"]); // Deno.KvU64 { value: 3n }
 * ```
 */
export function decodeValue(t: Tagged): unknown {
  if (t === null || typeof t === "string" || typeof t === "boolean") return t;
  if (typeof t === "number") return t;
  if (!Array.isArray(t) || typeof t[0] !== "string") fail("a bare object or an untagged array");
  const tag = t[0];
  switch (tag) {
    case "num":
      return decodeNumber(t);
    case "undefined":
      return undefined;
    case "bigint":
      return bigintOf(t[1]);
    case "u64": {
      const n = bigintOf(t[1]);
      if (n < 0n || n >= 1n << 64n) fail("a u64 out of range");
      return new Deno.KvU64(n);
    }
    case "bytes":
      return bytesOf(t[1]);
    case "typed": {
      const name = t[1];
      if (typeof name !== "string" || !Object.hasOwn(TYPED_ARRAYS, name)) fail("a typed array");
      const bytes = bytesOf(t[2]);
      const Ctor = TYPED_ARRAYS[name as TypedName];
      const size = "BYTES_PER_ELEMENT" in Ctor ? Ctor.BYTES_PER_ELEMENT : 1;
      if (bytes.byteLength % size !== 0) fail(`a ${name} of ${bytes.byteLength} bytes`);
      // A fresh buffer: the view starts at 0 and is aligned for its element size.
      const buffer = bytes.slice().buffer;
      return Ctor === DataView
        ? new DataView(buffer)
        : new (Ctor as Exclude<typeof Ctor, typeof DataView>)(buffer);
    }
    case "buffer":
      return bytesOf(t[1]).slice().buffer;
    case "date":
      return new Date(decodeNumber(t[1]));
    case "regexp":
      return regexpOf(t[1], t[2]);
    case "array":
      return packed(t);
    case "sparse": {
      const length = t[1];
      if (
        typeof length !== "number" || !Number.isInteger(length) || length < 0 || length > MAX_LENGTH
      ) {
        fail("a length");
      }
      const out: unknown[] = [];
      out.length = length;
      for (const pair of t.slice(2)) {
        if (!Array.isArray(pair) || pair.length !== 2) fail("a sparse item");
        const i = pair[0];
        if (typeof i !== "number" || !Number.isInteger(i) || i < 0 || i >= length) fail("an index");
        out[i] = decodeValue(pair[1]);
      }
      return out;
    }
    case "object": {
      const fields = t[1];
      if (t.length !== 2 || !fields || typeof fields !== "object" || Array.isArray(fields)) {
        fail("an object");
      }
      const out: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(fields)) {
        Object.defineProperty(out, name, {
          value: decodeValue(item),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    case "map": {
      const out = new Map<unknown, unknown>();
      for (const pair of t.slice(1)) {
        if (!Array.isArray(pair) || pair.length !== 2) fail("a map entry");
        out.set(decodeValue(pair[0]), decodeValue(pair[1]));
      }
      return out;
    }
    case "set":
      return new Set(packed(t));
  }
  fail(`unknown tag "${tag.slice(0, 20)}"`);
}

/**
 * Encode a KV key: an array of its encoded parts.
 *
 * @example
 * ```ts
 * encodeKey(["users", 7, new Uint8Array([1])]); // ["users", 7, ["bytes", "AQ"]]
 * ```
 */
export function encodeKey(key: Deno.KvKey): Tagged[] {
  return key.map((part) => encodeValue(part));
}

/**
 * Decode an encoded KV key; throws {@link BackupFormatError} unless every part is a key
 * part type (string, number, bigint, boolean, `Uint8Array`).
 *
 * @example
 * ```ts
 * decodeKey(["users", ["bigint", "7"]]); // ["users", 7n]
 * ```
 */
export function decodeKey(t: Tagged): Deno.KvKey {
  if (!Array.isArray(t)) fail("a key");
  return t.map((part) => {
    const v = decodeValue(part);
    if (
      typeof v === "string" || typeof v === "number" || typeof v === "bigint" ||
      typeof v === "boolean" || v instanceof Uint8Array
    ) return v;
    fail(`a key part (${describe(v)})`);
  });
}

/**
 * One entry line (without its `\n`).
 *
 * @example
 * ```ts
 * entryLine(["counters", "questions"], new Deno.KvU64(2n)); // '[["counters","questions"],["u64","2"]]'
 * ```
 */
export function entryLine(key: Deno.KvKey, value: unknown): string {
  return JSON.stringify([encodeKey(key), encodeValue(value)]);
}

/**
 * Parse one entry line; throws {@link BackupFormatError} when it is not one.
 *
 * @example
 * ```ts
 * const { key, value } = parseEntryLine('[["meta","health"],1]'); // ["meta", "health"], 1
 * ```
 */
export function parseEntryLine(line: string): { key: Deno.KvKey; value: unknown } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    fail("not JSON");
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) fail("not a [key, value] pair");
  return { key: decodeKey(parsed[0]), value: decodeValue(parsed[1]) };
}

const HeaderSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int(),
  createdAt: z.string(),
  build: z.string().nullable(),
  deno: z.string(),
  entries: z.literal("in the trailer"),
});

/** What the header line says. */
export type BackupHeader = z.infer<typeof HeaderSchema>;

/**
 * The header line (without its `\n`).
 *
 * @example
 * ```ts
 * headerLine({ createdAt: new Date(0).toISOString(), build: null, deno: Deno.version.deno });
 * ```
 */
export function headerLine(h: { createdAt: string; build: string | null; deno: string }): string {
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    version: BACKUP_FORMAT_VERSION,
    createdAt: h.createdAt,
    build: h.build,
    deno: h.deno,
    entries: "in the trailer",
  };
  return JSON.stringify(header);
}

/**
 * Parse the header line: the header, or `null` when the line is not one of this format
 * (another file, or a version this code does not know).
 *
 * @example
 * ```ts
 * parseHeader(headerLine({ createdAt: "2026-01-01T00:00:00.000Z", build: null, deno: "2.5.0" }));
 * ```
 */
export function parseHeader(line: string): BackupHeader | null {
  try {
    const h = HeaderSchema.safeParse(JSON.parse(line));
    return h.success && h.data.version === BACKUP_FORMAT_VERSION ? h.data : null;
  } catch {
    return null;
  }
}

const TrailerSchema = z.object({
  end: z.literal(BACKUP_FORMAT),
  entries: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/** What the trailer line says. */
export type BackupTrailer = { entries: number; sha256: string };

/**
 * The trailer line (without its `\n`).
 *
 * @example
 * ```ts
 * trailerLine({ entries: 0, sha256: "0".repeat(64) });
 * ```
 */
export function trailerLine(t: BackupTrailer): string {
  return JSON.stringify({ end: BACKUP_FORMAT, entries: t.entries, sha256: t.sha256 });
}

/**
 * Parse a line as the trailer, or `null` when it is not one (entry lines are arrays, so
 * they never parse as a trailer).
 *
 * @example
 * ```ts
 * parseTrailer(trailerLine({ entries: 2, sha256: "a".repeat(64) })); // { entries: 2, sha256: "aaa…" }
 * ```
 */
export function parseTrailer(line: string): BackupTrailer | null {
  if (!line.startsWith("{")) return null;
  try {
    const t = TrailerSchema.safeParse(JSON.parse(line));
    return t.success ? { entries: t.data.entries, sha256: t.data.sha256 } : null;
  } catch {
    return null;
  }
}

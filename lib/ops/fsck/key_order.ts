/**
 * The order KV lists keys in, for walking two sorted streams side by side (a counter
 * beside the entries it counts) without holding either in memory.
 *
 * KV orders a key part by type first — bytes, then strings, then bigints, then numbers,
 * then booleans — and within a type: bytes and strings by their UTF-8 bytes (not by
 * UTF-16 code units, which differ above U+FFFF), numbers numerically with `-0` before `0`
 * and `NaN` last, `false` before `true`. A key that is a prefix of another sorts first.
 *
 * @module
 */

const utf8 = new TextEncoder();

function rank(part: Deno.KvKeyPart): number {
  if (part instanceof Uint8Array) return 0;
  switch (typeof part) {
    case "string":
      return 1;
    case "bigint":
      return 2;
    case "number":
      return 3;
    default:
      return 4;
  }
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** True when a string has no UTF-16 surrogates: then code-unit order is UTF-8 order. */
function plain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return false;
  }
  return true;
}

function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  // UTF-16 order equals UTF-8 order except where surrogate pairs meet U+E000–U+FFFF.
  if (plain(a) && plain(b)) return a < b ? -1 : 1;
  return compareBytes(utf8.encode(a), utf8.encode(b));
}

function compareNumbers(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) {
    return Number.isNaN(a) === Number.isNaN(b) ? 0 : Number.isNaN(a) ? 1 : -1;
  }
  if (a !== b) return a < b ? -1 : 1;
  if (a === 0 && Object.is(a, -0) !== Object.is(b, -0)) return Object.is(a, -0) ? -1 : 1;
  return 0;
}

/**
 * Compare two key parts in KV's order: negative, zero or positive.
 *
 * @example
 * ```ts
 * compareKeyParts("a", 1); // < 0: strings sort before numbers
 * compareKeyParts(-0, 0); // < 0
 * ```
 */
export function compareKeyParts(a: Deno.KvKeyPart, b: Deno.KvKeyPart): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0:
      return compareBytes(a as Uint8Array, b as Uint8Array);
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : (a as bigint) < (b as bigint) ? -1 : 1;
    case 3:
      return compareNumbers(a as number, b as number);
    default:
      return a === b ? 0 : a ? 1 : -1;
  }
}

/**
 * Compare two keys (or key suffixes) in the order `kv.list` returns them.
 *
 * @example
 * ```ts
 * compareKeys(["x", "a"], ["x", "a", 1]); // < 0: a prefix sorts first
 * compareKeys(["x", "b"], ["x", "a", 1]); // > 0
 * ```
 */
export function compareKeys(a: readonly Deno.KvKeyPart[], b: readonly Deno.KvKeyPart[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareKeyParts(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/**
 * Embedding vectors as numbers and as stored bytes. A vector is kept in KV as the
 * little-endian bytes of its Float32 values in a `Uint8Array`: a plain byte array
 * serializes the same way in every Deno version (docs/decisions.md#storage), and 256
 * dimensions take 1 KiB. Every stored vector is L2-normalized, so the cosine of two is
 * their dot product.
 *
 * @module
 */

/**
 * The vector scaled to length 1 (a zero vector stays zero).
 *
 * @example
 * ```ts
 * const v = l2Normalize([3, 4]); // Float32Array [0.6, 0.8]
 * ```
 */
export function l2Normalize(v: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  const out = new Float32Array(v.length);
  if (sum === 0) return out;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) out[i] = v[i] * inv;
  return out;
}

/**
 * The dot product; for two normalized vectors, their cosine similarity. Vectors of
 * different lengths have none: 0.
 *
 * @example
 * ```ts
 * const same = dot(l2Normalize([1, 2]), l2Normalize([2, 4])); // ≈ 1
 * ```
 */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return 0;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * The stored form: the Float32 values' little-endian bytes.
 *
 * @example
 * ```ts
 * const bytes = encodeVector(l2Normalize([1, 1]));
 * bytes.byteLength; // 8
 * ```
 */
export function encodeVector(v: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(v.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i], true);
  return bytes;
}

/**
 * A stored vector read back (a byte length that is not a multiple of 4 is cut down).
 *
 * @example
 * ```ts
 * const v = decodeVector(encodeVector([0.5, -0.25])); // Float32Array [0.5, -0.25]
 * ```
 */
export function decodeVector(bytes: Uint8Array): Float32Array {
  const n = Math.floor(bytes.byteLength / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, n * 4);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

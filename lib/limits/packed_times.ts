/**
 * A rate-limit log's hit times as bytes: a format tag, the first time, then each time's
 * difference from the one before, all as zigzag varints (7 bits a byte, so a negative
 * difference — two instances' clocks — costs no more than a positive one).
 *
 * Why: a busy voter's log held up to `limit` times of 8 bytes (a `Float64Array`: 4.8 KB at
 * 600 an hour), read and written whole with every vote. A value that size does not fit in
 * one SQLite page of the store's table (KV's rows spill past ~1 KB into overflow pages), so
 * each group commit of 32 votes wrote some 150 KB, and the log was most of a vote's bytes
 * on both threads. Hits a few seconds apart take 2 bytes here (under ~8 s), 3 under ~17
 * min; a crowd's hits, ms apart, 1. The times stay exact to the millisecond, so every
 * limit decision and `retryAfter` is what it was.
 *
 * Only whole-millisecond times within ±2^50 pack ({@link packTimes} answers null for
 * others, and the caller keeps the `Float64Array`).
 *
 * @module
 */

/** The first byte of a packed log: the format (a later format takes another tag). */
const TAG = 1;
/** Times beyond this (in either direction) are not packed: differences stay exact. */
const MOST = 2 ** 50;

/** Scratch space for {@link packTimes}, grown as needed (the answer is an exact copy). */
let scratch = new Uint8Array(1024);

/**
 * The first `count` of `times` (default all) as packed bytes, or null when one is not a
 * whole number of milliseconds within ±2^50.
 *
 * @example
 * ```ts
 * const bytes = packTimes(new Float64Array([1_800_000_000_000, 1_800_000_000_050]));
 * bytes?.length; // 8: the tag, 6 bytes for the first time, 1 for the 50 ms after it
 * ```
 */
export function packTimes(times: ArrayLike<number>, count = times.length): Uint8Array | null {
  // At most 8 bytes per varint (2^51 zigzagged is under 2^56), plus the tag.
  if (scratch.length < 1 + 8 * count) scratch = new Uint8Array(2 * (1 + 8 * count));
  const buf = scratch;
  buf[0] = TAG;
  let at = 1;
  let prev = 0;
  for (let i = 0; i < count; i++) {
    const t = times[i];
    if (!Number.isInteger(t) || t > MOST || t < -MOST) return null;
    const d = t - prev;
    prev = t;
    let z = d >= 0 ? 2 * d : -2 * d - 1;
    while (z >= 128) {
      buf[at++] = (z % 128) | 128;
      z = Math.floor(z / 128);
    }
    buf[at++] = z;
  }
  return buf.slice(0, at);
}

/**
 * The times in `bytes` (written by {@link packTimes}), in their order, in an array with
 * `spare` free slots after them; null when the bytes are not a packed log.
 *
 * @example
 * ```ts
 * const times = unpackTimes(packTimes([5, 3, 9])!); // Float64Array [5, 3, 9]
 * ```
 */
export function unpackTimes(bytes: Uint8Array, spare = 0): Float64Array | null {
  if (bytes.length === 0 || bytes[0] !== TAG) return null;
  let count = 0;
  for (let i = 1; i < bytes.length; i++) if (bytes[i] < 128) count++;
  const out = new Float64Array(count + spare);
  let j = 0;
  let prev = 0;
  let z = 0;
  let scale = 1;
  for (let i = 1; i < bytes.length; i++) {
    const b = bytes[i];
    z += (b & 127) * scale;
    if (b < 128) {
      prev += z % 2 === 0 ? z / 2 : -(z + 1) / 2;
      out[j++] = prev;
      z = 0;
      scale = 1;
    } else {
      scale *= 128;
    }
  }
  return out;
}

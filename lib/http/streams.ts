/**
 * Reading a byte stream with a size cap, for request bodies and for answers from
 * other servers alike.
 *
 * @module
 */

/** Why {@link readTextCapped} gave up. */
export type CappedReadFailure = "too_large" | "unreadable";

/**
 * The stream's bytes as UTF-8 text, or the reason it could not be had: more than
 * `limit` bytes (the stream is cancelled at once, so a huge body is never buffered), or
 * a read error (the peer went away or sent garbage).
 *
 * @example
 * ```ts
 * import { HttpError } from "@/lib/fresh/error.ts";
 * declare const req: Request;
 * const text = await readTextCapped(req.body, 64 * 1024);
 * if (typeof text !== "string") {
 *   throw new HttpError(text.failed === "too_large" ? 413 : 400, "The body could not be read");
 * }
 * ```
 */
export async function readTextCapped(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<string | { failed: CappedReadFailure }> {
  if (!stream) return "";
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      return { failed: "unreadable" };
    }
    if (chunk.done) break;
    size += chunk.value.length;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return { failed: "too_large" };
    }
    chunks.push(chunk.value);
  }
  const all = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.length;
  }
  return new TextDecoder().decode(all);
}

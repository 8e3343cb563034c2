/**
 * Random identifiers and digests.
 *
 * @module
 */
import { MAX_LOOKUP_ID_LENGTH } from "./kv/keys.ts";

/** base64url without padding. */
export function base64url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decode base64url (padding optional); throws on bad input. */
export function fromBase64url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/**
 * `n` random bytes as base64url.
 *
 * @example
 * ```ts
 * randomToken(32); // 43 characters
 * ```
 */
export function randomToken(n = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(n)));
}

/**
 * A short random suffix for readable ids (`q-agent-<suffix>`): time-ordered prefix plus
 * randomness, lowercase alphanumerics only.
 */
export function idSuffix(now = Date.now()): string {
  const rand = crypto.getRandomValues(new Uint8Array(8));
  let r = "";
  for (const b of rand) r += (b % 36).toString(36);
  return now.toString(36) + r;
}

/**
 * SHA-256 of a string, as lowercase hex. Synchronous `node:crypto` underneath: every
 * signed-in request hashes its session token and every agent request its key, and
 * `crypto.subtle.digest` (an async op, a buffer and a hex join) measured ~11 µs a call
 * against ~1.4 µs. `node:crypto` is imported by the first call, not with this module: on
 * Deno 2.9 the first `node:` module loads Node compatibility, ~20 ms of a new instance's
 * start, and a signed-out first page hashes nothing.
 *
 * @example
 * ```ts
 * await sha256Hex("abc"); // "ba7816bf…15ad"
 * ```
 */
export function sha256Hex(text: string): Promise<string> {
  if (createHash) return Promise.resolve(createHash("sha256").update(text).digest("hex"));
  return import("node:crypto").then((m) => {
    createHash = m.createHash;
    return createHash("sha256").update(text).digest("hex");
  });
}

let createHash: typeof import("node:crypto").createHash | null = null;

/** Characters an id may hold: every id Parley mints is drawn from these. */
const ID_CHARACTERS = /^[A-Za-z0-9._~:-]+$/;

/**
 * True when `value` (a decoded path parameter) could be an id Parley minted: at most
 * {@link MAX_LOOKUP_ID_LENGTH} characters (a KV key holds 2 KiB) of letters, digits and
 * `. _ ~ : -`. The router answers 404 for anything else before a handler runs, so no
 * handler meets an id that would overflow a key or smuggle markup into a log line.
 *
 * @example
 * ```ts
 * import { isWellFormedId } from "./ids.ts";
 *
 * isWellFormedId("q-lq2x3k1a"); // true
 * isWellFormedId("x".repeat(2100)); // false
 * isWellFormedId("<img>"); // false
 * ```
 */
export function isWellFormedId(value: string): boolean {
  return value.length > 0 && value.length <= MAX_LOOKUP_ID_LENGTH && ID_CHARACTERS.test(value);
}

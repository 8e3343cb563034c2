/**
 * Proof Key for Code Exchange (RFC 7636), S256 only: the authorize request carries
 * `BASE64URL(SHA-256(verifier))`, the token request the verifier itself.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { base64url } from "../ids.ts";

/** A code verifier: 43 to 128 unreserved characters (RFC 7636 §4.1). */
export const CODE_VERIFIER_SHAPE = /^[A-Za-z0-9._~-]{43,128}$/;
/** An S256 code challenge: the base64url of 32 bytes, unpadded. */
export const CODE_CHALLENGE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The S256 challenge of a verifier.
 *
 * @example
 * ```ts
 * s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
 * // "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" (RFC 7636, appendix B)
 * ```
 */
export function s256Challenge(verifier: string): string {
  return base64url(new Uint8Array(createHash("sha256").update(verifier).digest()));
}

/**
 * True when `verifier` is well formed and hashes to `challenge`.
 *
 * @example
 * ```ts
 * verifyPkce(
 *   "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
 *   "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
 * ); // true
 * ```
 */
export function verifyPkce(verifier: string, challenge: string): boolean {
  return CODE_VERIFIER_SHAPE.test(verifier) && s256Challenge(verifier) === challenge;
}

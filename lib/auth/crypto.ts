/**
 * Encryption at rest for provider tokens: AES-256-GCM under a key derived from the app
 * secret with HKDF, so `APP_SECRET` itself is never used directly as a cipher key and
 * other purposes can derive their own keys from it.
 *
 * Ciphertexts are `v1.<iv>.<ciphertext+tag>` in base64url. An optional `context`
 * (e.g. the identity key) is bound as additional data: a ciphertext copied onto another
 * record fails to decrypt.
 *
 * @module
 */
import { base64url, fromBase64url } from "../ids.ts";

const VERSION = "v1";
const enc = new TextEncoder();
const dec = new TextDecoder();

const keyCache = new Map<string, Promise<CryptoKey>>();

/** Derive (and cache) the AES-GCM key of one purpose from the app secret. */
function tokenKey(secret: string, purpose = "parley:provider-tokens:v1"): Promise<CryptoKey> {
  const cacheKey = `${purpose}\u0000${secret}`;
  let key = keyCache.get(cacheKey);
  if (!key) {
    key = (async () => {
      const material = await crypto.subtle.importKey("raw", enc.encode(secret), "HKDF", false, [
        "deriveKey",
      ]);
      return await crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: enc.encode("parley"), info: enc.encode(purpose) },
        material,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      );
    })();
    keyCache.set(cacheKey, key);
  }
  return key;
}

/**
 * Encrypt a string under the app secret.
 *
 * @example
 * ```ts
 * declare const accessToken: string;
 * declare const secret: string;
 * const sealed = await encryptString(secret, accessToken, "provider_a:1001");
 * await decryptString(secret, sealed, "provider_a:1001"); // accessToken
 * ```
 */
export async function encryptString(
  secret: string,
  plaintext: string,
  context = "",
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: enc.encode(context) },
    await tokenKey(secret),
    enc.encode(plaintext),
  );
  return `${VERSION}.${base64url(iv)}.${base64url(new Uint8Array(ct))}`;
}

/**
 * Decrypt what {@link encryptString} produced; null when the text is not ours, was
 * altered, was sealed under another secret or another context.
 *
 * @example
 * ```ts
 * declare const identity: { accessToken: string };
 * declare const secret: string;
 * const token = await decryptString(secret, identity.accessToken, "provider_a:1001");
 * ```
 */
export async function decryptString(
  secret: string,
  sealed: string,
  context = "",
): Promise<string | null> {
  const parts = sealed.split(".");
  if (parts.length !== 3 || parts[0] !== VERSION) return null;
  try {
    const pt = await crypto.subtle.decrypt(
      {
        name: "AES-GCM",
        iv: new Uint8Array(fromBase64url(parts[1])),
        additionalData: enc.encode(context),
      },
      await tokenKey(secret),
      new Uint8Array(fromBase64url(parts[2])),
    );
    return dec.decode(pt);
  } catch {
    return null;
  }
}

/**
 * HMAC-SHA256 of `message` under a key derived from the secret for `purpose`, as
 * base64url (used for values the app must recognise as its own, e.g. local client secrets).
 *
 * @example
 * ```ts
 * declare const secret: string;
 * const mac = await hmac(secret, "local-oauth:provider_a");
 * ```
 */
export async function hmac(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    enc.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return base64url(new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(message))));
}

/**
 * Compare two strings without an early exit (for secrets such as OAuth state).
 *
 * @example
 * ```ts
 * declare const stateFromCookie: string;
 * declare const stateFromQuery: string;
 * timingSafeEqual(stateFromQuery, stateFromCookie);
 * ```
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = enc.encode(a);
  const y = enc.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/**
 * The PKCE S256 challenge of a verifier: base64url (no padding) of its SHA-256.
 *
 * @example
 * ```ts
 * // RFC 7636 appendix B
 * await pkceChallenge("dBjftJeZ4CVP-mJ0cXm8AHsS8qP3T0YVmbRtbajvr0M");
 * // "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
 * ```
 */
export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/**
 * The auth payload (docs/interface.md#auth-payload): base64url JSON in an HttpOnly cookie that
 * carries a finished provider sign-in from the API callback to the app callback page.
 *
 * The cookie alone proves nothing — anyone can write base64url JSON. When the API
 * callback issues a payload it records a one-time nonce in KV under the SHA-256 of the
 * exact cookie value; the app callback accepts the payload only while that record exists
 * and consumes it in the same atomic op that creates the session. A forged, altered,
 * expired or replayed cookie therefore signs nobody in.
 *
 * @module
 */
import { z } from "zod";
import type { ProviderId } from "../config.ts";
import { base64url, fromBase64url, randomToken, sha256Hex } from "../ids.ts";
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { providerClient } from "./clients.ts";
import { PROVIDERS } from "./providers.ts";

/** Lifetime of a payload cookie and its nonce (docs/interface.md#auth-payload: 2 minutes). */
export const PAYLOAD_TTL_MS = 2 * 60 * 1000;

/** Largest payload cookie issued (browsers keep ~4096 bytes per cookie). */
export const PAYLOAD_MAX_CHARS = 3800;

/** docs/interface.md#auth-payload. */
export interface AuthPayload {
  provider: ProviderId;
  providerAccountId: string;
  /** The provider's own profile shape. */
  profile: unknown;
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
  issuedAt: number;
}

/** What the API callback records for a payload it issued. */
export interface PayloadNonce {
  provider: ProviderId;
  /** Where the app callback sends the user afterwards (a safe same-origin path). */
  returnTo: string;
  issuedAt: number;
  expiresAt: number;
}

const PayloadSchema = z.object({
  provider: z.enum(PROVIDERS),
  providerAccountId: z.string().min(1).max(255),
  profile: z.unknown(),
  accessToken: z.string().min(1).max(4096),
  refreshToken: z.string().max(4096).nullable(),
  expiresAt: z.number().nullable(),
  issuedAt: z.number(),
});

/**
 * The cookie value of a payload.
 *
 * @example
 * ```ts
 * declare const payload: Parameters<typeof encodePayload>[0];
 * const value = encodePayload(payload); // "eyJwcm92aWRlciI6…"
 * ```
 */
export function encodePayload(payload: AuthPayload): string {
  return base64url(new TextEncoder().encode(JSON.stringify(payload)));
}

/**
 * Parse a cookie value back into a payload; null when it is not base64url JSON of the
 * right shape, or its profile does not match its provider's profile shape.
 *
 * @example
 * ```ts
 * declare const cookies: Record<string, string>;
 * const payload = decodePayload(cookies["provider_a_auth_payload"]);
 * ```
 */
export function decodePayload(value: string | undefined): AuthPayload | null {
  if (!value || value.length > PAYLOAD_MAX_CHARS * 2) return null;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(fromBase64url(value)));
  } catch {
    return null;
  }
  const parsed = PayloadSchema.safeParse(json);
  if (!parsed.success) return null;
  const profile = providerClient(parsed.data.provider).profileSchema.safeParse(
    parsed.data.profile,
  );
  if (!profile.success) return null;
  return { ...parsed.data, profile: profile.data };
}

/**
 * The KV prefix of a payload's nonces: the SHA-256 of its exact cookie value. Each
 * issuance adds its own entry below it, so two identical payloads (same account, tokens
 * and millisecond) are each accepted once rather than the second being lost.
 */
export async function payloadNoncePrefix(cookieValue: string): Promise<Deno.KvKey> {
  return keys.authPayloadNoncesOf(await sha256Hex(cookieValue));
}

/**
 * Encode a payload and record its one-time nonce; returns the cookie value, or null when
 * the payload would not fit in a cookie (nothing is recorded then).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const payload: Parameters<typeof encodePayload>[0];
 * const cookie = await issuePayload(kv, payload, "/questions/q1");
 * ```
 */
export async function issuePayload(
  kv: Deno.Kv,
  payload: AuthPayload,
  returnTo: string,
): Promise<string | null> {
  const value = encodePayload(payload);
  if (value.length > PAYLOAD_MAX_CHARS) return null;
  const nonce: PayloadNonce = {
    provider: payload.provider,
    returnTo,
    issuedAt: payload.issuedAt,
    expiresAt: payload.issuedAt + PAYLOAD_TTL_MS,
  };
  const key = [...await payloadNoncePrefix(value), randomToken(9)];
  await commit(kv, (op) => op.set(key, nonce, { expireIn: PAYLOAD_TTL_MS }));
  return value;
}

/**
 * True when a payload's own timestamps put it inside its lifetime at `now`.
 *
 * @example
 * ```ts
 * declare const payload: Parameters<typeof encodePayload>[0];
 * payloadIsFresh(payload, Date.now());
 * ```
 */
export function payloadIsFresh(payload: AuthPayload, now: number): boolean {
  // A little tolerance for an issuer clock ahead of ours (several instances).
  return payload.issuedAt <= now + 5_000 && now - payload.issuedAt <= PAYLOAD_TTL_MS;
}

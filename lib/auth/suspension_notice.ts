/**
 * What a suspended person sees when they try to sign in (docs/interface.md#sanctions): the
 * callback sends them to `/signin?error=suspended&notice=<token>`, and the sign-in page
 * shows the reason and the end of their suspension. The token names the account and when
 * it stops being valid, signed with the app secret, so only the person who just proved
 * who they are at the provider reads their reason — nobody can ask for someone else's by
 * putting a user id in a URL.
 *
 * @module
 */
import { hmac, timingSafeEqual } from "./crypto.ts";

/** How long a notice link shows the reason. */
export const NOTICE_TTL_MS = 10 * 60_000;

const PURPOSE = "suspension-notice";

/**
 * A signed notice for `userId`, valid for {@link NOTICE_TTL_MS}.
 *
 * @example
 * ```ts
 * declare const secret: string;
 * const token = await suspensionNotice(secret, "u_1", Date.now());
 * ```
 */
export async function suspensionNotice(
  secret: string,
  userId: string,
  now: number,
): Promise<string> {
  const body = `${userId}.${now + NOTICE_TTL_MS}`;
  return `${body}.${await hmac(secret, `${PURPOSE}:${body}`)}`;
}

/**
 * The user id of a valid, unexpired notice, or null.
 *
 * @example
 * ```ts
 * declare const secret: string;
 * const token = await suspensionNotice(secret, "u_1", 0);
 * await readSuspensionNotice(secret, token, 1_000); // "u_1"
 * ```
 */
export async function readSuspensionNotice(
  secret: string,
  token: string | null,
  now: number,
): Promise<string | null> {
  if (!token || token.length > 300) return null;
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [userId, expires, mac] = parts;
  if (!/^\d+$/.test(expires) || Number(expires) <= now) return null;
  const expected = await hmac(secret, `${PURPOSE}:${userId}.${expires}`);
  return timingSafeEqual(mac, expected) ? userId : null;
}

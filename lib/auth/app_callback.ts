/**
 * The app callback pages (`/auth/callback/provider_a`, `/auth/callback/oauth?provider=…`):
 * read the payload cookie, accept it once (lib/auth/signin.ts), set the session cookie,
 * delete the payload cookie, and go to `returnTo` — or to `/?error=auth_failed`.
 *
 * @module
 */
import type { ProviderId } from "../config.ts";
import type { CookieSpec } from "../http/cookies.ts";
import type { Redirect } from "../http/redirect.ts";
import { deleteSession, SESSION_TTL_MS, sessionCookieName } from "./sessions.ts";
import type { Services } from "../services.ts";
import { PAYLOAD_COOKIE_PATH } from "./flow.ts";
import { payloadCookieName } from "./providers.ts";
import { completeSignIn } from "./signin.ts";
import { suspensionNotice } from "./suspension_notice.ts";

/**
 * Finish a login: turn the provider's payload cookie (from the request's `cookies`) into
 * a session — the cookies to set and where to go next.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * declare const services: Services;
 * const { redirect, cookies } = await finishSignIn(services, "provider_a", {});
 * ```
 */
export async function finishSignIn(
  services: Services,
  provider: ProviderId | null,
  cookies: Record<string, string>,
): Promise<Redirect> {
  const https = services.config.appOrigin.startsWith("https:");
  const out: CookieSpec[] = [];
  const name = provider ? payloadCookieName(provider) : null;
  if (name) {
    out.push({ name, value: "", options: { maxAge: 0, secure: https, path: PAYLOAD_COOKIE_PATH } });
  }
  const result = provider
    ? await completeSignIn(
      services.kv,
      services.secret,
      provider,
      cookies[name!],
      services.now(),
      services.config.offensiveWords,
    )
    : { ok: false as const, reason: "wrong_provider" as const };
  if (!result.ok && result.reason === "suspended") {
    // The sign-in page says why and until when (a signed notice: only this person reads it).
    const notice = await suspensionNotice(services.secret, result.userId, services.now());
    return {
      redirect: `/signin?error=suspended&notice=${encodeURIComponent(notice)}`,
      cookies: out,
    };
  }
  if (!result.ok) {
    console.warn(`Sign-in payload refused (${provider ?? "unknown provider"}): ${result.reason}`);
    return { redirect: "/?error=auth_failed", cookies: out };
  }
  // A session this browser held before (another account) ends here rather than lingering.
  const sessionCookie = sessionCookieName(services.config.appOrigin);
  if (cookies[sessionCookie]) await deleteSession(services.kv, cookies[sessionCookie]);
  out.push({
    name: sessionCookie,
    value: result.token,
    options: { maxAge: SESSION_TTL_MS / 1000, secure: https },
  });
  return { redirect: result.returnTo, cookies: out };
}

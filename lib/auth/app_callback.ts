/**
 * The app callback pages (`/auth/callback/provider_a`, `/auth/callback/oauth?provider=…`):
 * read the payload cookie, accept it once (lib/auth/signin.ts), set the session cookie,
 * delete the payload cookie, and go to `returnTo` — or to `/?error=auth_failed`.
 *
 * @module
 */
import type { ProviderId } from "../config.ts";
import { getCookies, setCookie } from "../http/cookies.ts";
import { deleteSession, SESSION_TTL_MS, sessionCookieName } from "./sessions.ts";
import type { Services } from "../state.ts";
import { PAYLOAD_COOKIE_PATH } from "./flow.ts";
import { payloadCookieName } from "./providers.ts";
import { completeSignIn } from "./signin.ts";

/**
 * Finish a login: turn the provider's payload cookie into a session.
 *
 * @example
 * ```ts
 * export const handler = { GET: (req, ctx) => finishSignIn(req, ctx.state.services, "provider_a") };
 * ```
 */
export async function finishSignIn(
  req: Request,
  services: Services,
  provider: ProviderId | null,
): Promise<Response> {
  const https = services.config.appOrigin.startsWith("https:");
  const headers = new Headers({ "cache-control": "no-store" });
  const cookies = getCookies(req);
  const name = provider ? payloadCookieName(provider) : null;
  if (name) setCookie(headers, name, "", { maxAge: 0, secure: https, path: PAYLOAD_COOKIE_PATH });
  const result = provider
    ? await completeSignIn(services.kv, services.secret, provider, cookies[name!], services.now())
    : { ok: false as const, reason: "wrong_provider" as const };
  if (!result.ok) {
    console.warn(`Sign-in payload refused (${provider ?? "unknown provider"}): ${result.reason}`);
    headers.set("location", "/?error=auth_failed");
    return new Response(null, { status: 302, headers });
  }
  // A session this browser held before (another account) ends here rather than lingering.
  const sessionCookie = sessionCookieName(services.config.appOrigin);
  if (cookies[sessionCookie]) await deleteSession(services.kv, cookies[sessionCookie]);
  setCookie(headers, sessionCookie, result.token, {
    maxAge: SESSION_TTL_MS / 1000,
    secure: https,
  });
  headers.set("location", result.returnTo);
  return new Response(null, { status: 302, headers });
}

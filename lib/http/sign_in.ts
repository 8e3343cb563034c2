/**
 * The HTTP edge of sign-in, shared by the three providers' login and callback routes and
 * the app callback pages: read the request, run the flow (lib/auth/flow.ts,
 * lib/auth/app_callback.ts), and answer its outcome as a response.
 *
 * @module
 */
import { finishSignIn } from "../auth/app_callback.ts";
import { handleCallback, startSignIn } from "../auth/flow.ts";
import { PROVIDER_INFO } from "../auth/providers.ts";
import type { ProviderId } from "../config.ts";
import type { Services } from "../state.ts";
import { getCookies } from "./cookies.ts";
import { jsonError } from "./errors.ts";
import { redirectResponse } from "./redirect.ts";
import { safeReturnTo } from "./return_to.ts";

/** A started sign-in as a response: the redirect, or 404 when the provider is unavailable. */
export async function startSignInResponse(
  services: Services,
  provider: ProviderId,
  opts: Parameters<typeof startSignIn>[2],
): Promise<Response> {
  const start = await startSignIn(services, provider, opts);
  if (!start.ok) return jsonError(404, `${PROVIDER_INFO[provider].label} sign-in is not available`);
  return redirectResponse(start);
}

/**
 * `GET /api/auth/login[/provider]?flow=login|bind&returnTo=/path`.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/state.ts";
 * declare const services: Services;
 * const res = await loginResponse(new Request("http://x/api/auth/login"), services, "provider_b");
 * ```
 */
export function loginResponse(
  req: Request,
  services: Services,
  provider: ProviderId,
): Promise<Response> {
  const q = new URL(req.url).searchParams;
  return startSignInResponse(services, provider, {
    flow: q.get("flow") === "bind" ? "bind" : "login",
    returnTo: safeReturnTo(q.get("returnTo")),
  });
}

/** `GET /api/auth/callback[/provider]`: the provider's redirect back. */
export async function callbackResponse(
  req: Request,
  services: Services,
  provider: ProviderId,
  sessionUserId: string | null,
): Promise<Response> {
  const params = new URL(req.url).searchParams;
  const outcome = await handleCallback(services, provider, {
    params,
    cookies: getCookies(req),
    sessionUserId,
  });
  return redirectResponse(outcome);
}

/** The app callback pages: the payload cookie becomes a session. */
export async function finishSignInResponse(
  req: Request,
  services: Services,
  provider: ProviderId | null,
): Promise<Response> {
  return redirectResponse(await finishSignIn(services, provider, getCookies(req)));
}

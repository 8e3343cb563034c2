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
import type { Services } from "../services.ts";
import { getCookies } from "./cookies.ts";
import { HttpError } from "../fresh/error.ts";
import { redirectResponse } from "./redirect.ts";
import { safeReturnTo } from "./return_to.ts";

/** The providers whose login and callback paths end in their name (docs/interface.md#sign-in). */
const NAMED_IN_PATH = ["provider_b", "provider_c"] as const satisfies readonly ProviderId[];

/**
 * The provider named by a `[provider]` route segment: `provider_b` or `provider_c` (the
 * docs/interface.md#sign-in paths); anything else, `provider_a` included, names no route (null).
 *
 * @example
 * ```ts
 * providerNamedInPath("provider_b"); // "provider_b"
 * providerNamedInPath("provider_a"); // null: its paths have no name segment
 * ```
 */
export function providerNamedInPath(name: string | undefined): ProviderId | null {
  return NAMED_IN_PATH.find((p) => p === name) ?? null;
}

/**
 * The sign-in options of `GET /api/auth/login[/provider]?flow=login|bind&returnTo=/path`
 * (an off-site `returnTo` becomes `/`).
 *
 * @example
 * ```ts
 * loginOptions(new URL("http://x/api/auth/login?returnTo=/ask")); // {flow: "login", returnTo: "/ask"}
 * ```
 */
export function loginOptions(url: URL): { flow: "login" | "bind"; returnTo: string } {
  const q = url.searchParams;
  return {
    flow: q.get("flow") === "bind" ? "bind" : "login",
    returnTo: safeReturnTo(q.get("returnTo")),
  };
}

/**
 * A started sign-in answered: the redirect to the provider, or 404 when the provider is
 * not configured.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * declare const services: Services;
 * const res = await startSignInResponse(services, "provider_a", { flow: "login", returnTo: "/" });
 * ```
 */
export async function startSignInResponse(
  services: Services,
  provider: ProviderId,
  opts: Parameters<typeof startSignIn>[2],
): Promise<Response> {
  const start = await startSignIn(services, provider, opts);
  if (!start.ok) {
    throw new HttpError(404, `${PROVIDER_INFO[provider].label} sign-in is not available`);
  }
  return redirectResponse(start);
}

/**
 * `GET /api/auth/callback[/provider]` answered: the provider's redirect back becomes a
 * redirect to the app callback page (or to an error), with the flow's cookies.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * declare const req: Request;
 * declare const services: Services;
 * const res = await callbackResponse(req, services, "provider_b", new URL(req.url), null);
 * ```
 */
export async function callbackResponse(
  req: Request,
  services: Services,
  provider: ProviderId,
  url: URL,
  sessionUserId: string | null,
): Promise<Response> {
  const outcome = await handleCallback(services, provider, {
    params: url.searchParams,
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

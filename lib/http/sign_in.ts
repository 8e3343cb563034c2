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
import type { FreshContext } from "../fresh/types.ts";
import { type AppState, define, type Services } from "../state.ts";
import { getCookies } from "./cookies.ts";
import { HttpError } from "./errors.ts";
import { redirectResponse } from "./redirect.ts";
import { safeReturnTo } from "./return_to.ts";

/** The provider a sign-in route serves, or null for a path that names none (404). */
export type ProviderOf = (ctx: FreshContext<AppState>) => ProviderId | null;

/** The providers whose login and callback paths end in their name (SPEC.md). */
const NAMED_IN_PATH = ["provider_b", "provider_c"] as const satisfies readonly ProviderId[];

/**
 * The provider named by a `[provider]` route segment: `provider_b` or `provider_c` (the
 * SPEC.md paths); anything else, `provider_a` included, names no route.
 *
 * @example
 * ```ts
 * import type { FreshContext } from "@/lib/fresh/types.ts";
 * import type { AppState } from "@/lib/state.ts";
 * declare const ctx: FreshContext<AppState>;
 * providerFromPath(ctx); // "provider_b" on /api/auth/login/provider_b
 * ```
 */
export const providerFromPath: ProviderOf = (ctx) => {
  const name = ctx.params.provider;
  return NAMED_IN_PATH.find((p) => p === name) ?? null;
};

/** A started sign-in as a response: the redirect, or 404 when the provider is unavailable. */
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
 * The handlers of `GET /api/auth/login[/provider]?flow=login|bind&returnTo=/path`: start
 * a sign-in (or bind) with the provider `providerOf` names; a path naming none is the
 * plain not-found answer of an unknown path.
 *
 * @example
 * ```ts
 * export const handler = loginHandlers(() => "provider_a");
 * ```
 */
export function loginHandlers(providerOf: ProviderOf) {
  return define.handlers({
    GET(_req, ctx) {
      const provider = providerOf(ctx);
      if (!provider) return ctx.renderNotFound();
      const q = ctx.url.searchParams;
      return startSignInResponse(ctx.state.services, provider, {
        flow: q.get("flow") === "bind" ? "bind" : "login",
        returnTo: safeReturnTo(q.get("returnTo")),
      });
    },
  });
}

/**
 * The handlers of `GET /api/auth/callback[/provider]`: the provider's redirect back, for
 * the provider `providerOf` names; a path naming none is the plain not-found answer.
 *
 * @example
 * ```ts
 * import { providerFromPath } from "./sign_in.ts";
 * export const handler = callbackHandlers(providerFromPath);
 * ```
 */
export function callbackHandlers(providerOf: ProviderOf) {
  return define.handlers({
    async GET(req, ctx) {
      const provider = providerOf(ctx);
      if (!provider) return ctx.renderNotFound();
      const outcome = await handleCallback(ctx.state.services, provider, {
        params: ctx.url.searchParams,
        cookies: getCookies(req),
        sessionUserId: ctx.state.user?.id ?? null,
      });
      return redirectResponse(outcome);
    },
  });
}

/** The app callback pages: the payload cookie becomes a session. */
export async function finishSignInResponse(
  req: Request,
  services: Services,
  provider: ProviderId | null,
): Promise<Response> {
  return redirectResponse(await finishSignIn(services, provider, getCookies(req)));
}

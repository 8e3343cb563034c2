/**
 * Route handlers shared by the three providers' login and callback routes, so each
 * route file is one line naming its provider.
 *
 * @module
 */
import type { ProviderId } from "../config.ts";
import type { Handlers } from "../fresh/types.ts";
import { jsonError } from "../http/errors.ts";
import { safeReturnTo } from "../http/return_to.ts";
import type { AppState } from "../state.ts";
import { handleCallback, startSignIn } from "./flow.ts";
import { PROVIDER_INFO } from "./providers.ts";

/**
 * `GET /api/auth/login[/provider]?flow=login|bind&returnTo=/path`.
 *
 * @example
 * ```ts
 * export const handler = loginHandlers("provider_b");
 * ```
 */
export function loginHandlers(provider: ProviderId): Handlers<unknown, AppState> {
  return {
    async GET(req, ctx) {
      const q = new URL(req.url).searchParams;
      const res = await startSignIn(ctx.state.services, provider, {
        flow: q.get("flow") === "bind" ? "bind" : "login",
        returnTo: safeReturnTo(q.get("returnTo")),
      });
      return res ?? jsonError(404, `${PROVIDER_INFO[provider].label} sign-in is not available`);
    },
  };
}

/**
 * `GET /api/auth/callback[/provider]`: the provider's redirect back.
 *
 * @example
 * ```ts
 * export const handler = callbackHandlers("provider_c");
 * ```
 */
export function callbackHandlers(provider: ProviderId): Handlers<unknown, AppState> {
  return {
    GET: (req, ctx) =>
      handleCallback(req, ctx.state.services, provider, ctx.state.user?.id ?? null),
  };
}

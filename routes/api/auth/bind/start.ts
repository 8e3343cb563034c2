import { isProviderId } from "@/lib/auth/providers.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { jsonError } from "@/lib/http/errors.ts";
import { startSignInResponse } from "@/lib/http/sign_in.ts";
import type { AppState } from "@/lib/state.ts";

/**
 * GET /api/auth/bind/start?provider=…: bind another provider account to the signed-in
 * user. Remembers the user as the bind target and continues as `flow=bind`.
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(req, ctx) {
    const user = ctx.state.user;
    if (!user) {
      return new Response(null, {
        status: 302,
        headers: { location: "/signin?returnTo=%2Fprofile" },
      });
    }
    const provider = new URL(req.url).searchParams.get("provider");
    if (!isProviderId(provider)) {
      return jsonError(400, "provider must be provider_a, provider_b or provider_c");
    }
    return await startSignInResponse(ctx.state.services, provider, {
      flow: "bind",
      returnTo: "/profile",
      bindTargetUserId: user.id,
    });
  },
};

import { isProviderId } from "@/lib/auth/providers.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { startSignInResponse } from "@/lib/http/sign_in.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/auth/bind/start?provider=…: bind another provider account to the signed-in
 * user. Remembers the user as the bind target and continues as `flow=bind`.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const user = ctx.state.user;
    if (!user) {
      return ctx.redirect("/signin?returnTo=%2Fprofile");
    }
    const provider = ctx.url.searchParams.get("provider");
    // docs/interface.md#bind fixes this body exactly (no `issues`), so not parseInput.
    if (!isProviderId(provider)) {
      throw new HttpError(400, "provider must be provider_a, provider_b or provider_c");
    }
    return await startSignInResponse(ctx.state.services, provider, {
      flow: "bind",
      returnTo: "/profile",
      bindTargetUserId: user.id,
    });
  },
});

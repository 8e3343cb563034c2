import { HttpError } from "@/lib/fresh/mod.ts";
import { loginOptions, providerNamedInPath, startSignInResponse } from "@/lib/http/sign_in.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/auth/login/provider_b and /api/auth/login/provider_c: start that provider's
 * sign-in (or bind). Any other name answers as an unknown path does (404).
 */
export const handler = define.handlers({
  GET(ctx) {
    const provider = providerNamedInPath(ctx.params.provider);
    if (!provider) throw new HttpError(404);
    return startSignInResponse(ctx.state.services, provider, loginOptions(ctx.url));
  },
});

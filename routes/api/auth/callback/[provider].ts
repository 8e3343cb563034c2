import { HttpError } from "@/lib/fresh/mod.ts";
import { callbackResponse, providerNamedInPath } from "@/lib/http/sign_in.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/auth/callback/provider_b and /api/auth/callback/provider_c: that provider's
 * redirect back (docs/interface.md#callback). Any other name answers as an unknown path
 * does (404).
 */
export const handler = define.handlers({
  GET(ctx) {
    const provider = providerNamedInPath(ctx.params.provider);
    if (!provider) throw new HttpError(404);
    return callbackResponse(
      ctx.req,
      ctx.state.services,
      provider,
      ctx.url,
      ctx.state.user?.id ?? null,
    );
  },
});

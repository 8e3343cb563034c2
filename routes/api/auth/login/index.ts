import { loginOptions, startSignInResponse } from "@/lib/http/sign_in.ts";
import { define } from "@/lib/state.ts";

/** GET /api/auth/login?flow=login|bind&returnTo=/path: start a provider_a sign-in (or bind). */
export const handler = define.handlers({
  GET: (ctx) => startSignInResponse(ctx.state.services, "provider_a", loginOptions(ctx.url)),
});

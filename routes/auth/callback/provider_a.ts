import { finishSignInResponse } from "@/lib/http/sign_in.ts";
import { define } from "@/lib/state.ts";

/** GET /auth/callback/provider_a: turn the provider_a payload cookie into a session. */
export const handler = define.handlers({
  GET: (ctx) => finishSignInResponse(ctx.req, ctx.state.services, "provider_a"),
});

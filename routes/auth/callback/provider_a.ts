import type { Handlers } from "@/lib/fresh/types.ts";
import { finishSignInResponse } from "@/lib/http/sign_in.ts";
import type { AppState } from "@/lib/state.ts";

/** GET /auth/callback/provider_a: turn the provider_a payload cookie into a session. */
export const handler: Handlers<unknown, AppState> = {
  GET: (req, ctx) => finishSignInResponse(req, ctx.state.services, "provider_a"),
};

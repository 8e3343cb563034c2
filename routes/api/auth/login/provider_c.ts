import type { Handlers } from "@/lib/fresh/types.ts";
import { loginResponse } from "@/lib/http/sign_in.ts";
import type { AppState } from "@/lib/state.ts";

/** GET /api/auth/login/provider_c: start a provider_c sign-in (or bind). */
export const handler: Handlers<unknown, AppState> = {
  GET: (req, ctx) => loginResponse(req, ctx.state.services, "provider_c"),
};

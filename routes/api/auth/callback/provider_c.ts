import type { Handlers } from "@/lib/fresh/types.ts";
import { callbackResponse } from "@/lib/http/sign_in.ts";
import type { AppState } from "@/lib/state.ts";

/** GET /api/auth/callback/provider_c: provider_c's redirect back (SPEC.md "Sign-in callbacks"). */
export const handler: Handlers<unknown, AppState> = {
  GET: (req, ctx) =>
    callbackResponse(req, ctx.state.services, "provider_c", ctx.state.user?.id ?? null),
};

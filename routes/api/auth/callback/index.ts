import { callbackResponse } from "@/lib/http/sign_in.ts";
import { define } from "@/lib/state.ts";

/** GET /api/auth/callback: provider_a's redirect back (docs/interface.md#callback). */
export const handler = define.handlers({
  GET: (ctx) =>
    callbackResponse(
      ctx.req,
      ctx.state.services,
      "provider_a",
      ctx.url,
      ctx.state.user?.id ?? null,
    ),
});

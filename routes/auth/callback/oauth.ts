import { finishSignInResponse } from "@/lib/http/sign_in.ts";
import { define } from "@/lib/state.ts";

const PROVIDER_PARAM = {
  "provider_b-oauth": "provider_b",
  "provider_c-oauth": "provider_c",
} as const;

/**
 * GET /auth/callback/oauth?provider=provider_b-oauth|provider_c-oauth: turn that
 * provider's payload cookie into a session.
 */
export const handler = define.handlers({
  GET(ctx) {
    const param = ctx.url.searchParams.get("provider") ?? "";
    const provider = Object.hasOwn(PROVIDER_PARAM, param)
      ? PROVIDER_PARAM[param as keyof typeof PROVIDER_PARAM]
      : null;
    return finishSignInResponse(ctx.req, ctx.state.services, provider);
  },
});

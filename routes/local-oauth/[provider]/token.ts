import { localTokenEndpoint } from "@/lib/auth/local/protocol.ts";
import { isProviderId } from "@/lib/auth/providers.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import type { AppState } from "@/lib/state.ts";

/** POST /local-oauth/<provider>/token: the local provider's token endpoint. */
export const handler: Handlers<unknown, AppState> = {
  POST(req, ctx) {
    const provider = ctx.params.provider;
    if (!isProviderId(provider)) return ctx.renderNotFound();
    return localTokenEndpoint(req, ctx.state.services, provider);
  },
};

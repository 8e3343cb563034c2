import { localTokenEndpoint } from "@/lib/auth/local/protocol.ts";
import { isProviderId } from "@/lib/auth/providers.ts";
import { localAnswerResponse } from "@/lib/http/local_oauth.ts";
import { define } from "@/lib/state.ts";

/** POST /local-oauth/<provider>/token: the local provider's token endpoint. */
export const handler = define.handlers({
  async POST(req, ctx) {
    const provider = ctx.params.provider;
    if (!isProviderId(provider)) return ctx.renderNotFound();
    return localAnswerResponse(await localTokenEndpoint(req, ctx.state.services, provider));
  },
});

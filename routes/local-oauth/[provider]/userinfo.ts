import { localProfileEndpoint } from "@/lib/auth/local/protocol.ts";
import { isProviderId } from "@/lib/auth/providers.ts";
import { localAnswerResponse } from "@/lib/http/local_oauth.ts";
import { define } from "@/lib/state.ts";

/** GET /local-oauth/<provider>/userinfo: the local provider's bearer-authenticated userinfo endpoint. */
export const handler = define.handlers({
  async GET(req, ctx) {
    const provider = ctx.params.provider;
    if (!isProviderId(provider)) return ctx.renderNotFound();
    const res = await localProfileEndpoint(req, ctx.state.services, provider, "userinfo");
    return res ? localAnswerResponse(res) : ctx.renderNotFound();
  },
});

import { HttpError } from "@/lib/fresh/mod.ts";
import { localProfileEndpoint } from "@/lib/auth/local/protocol.ts";
import { isProviderId } from "@/lib/auth/providers.ts";
import { localAnswerResponse } from "@/lib/http/local_oauth.ts";
import { define } from "@/lib/state.ts";

/** GET /local-oauth/<provider>/userinfo: the local provider's bearer-authenticated userinfo endpoint. */
export const handler = define.handlers({
  async GET(ctx) {
    const provider = ctx.params.provider;
    if (!isProviderId(provider)) throw new HttpError(404);
    const res = await localProfileEndpoint(ctx.req, ctx.state.services, provider, "userinfo");
    if (!res) throw new HttpError(404);
    return localAnswerResponse(res);
  },
});

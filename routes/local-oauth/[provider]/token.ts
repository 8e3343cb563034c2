import { HttpError } from "@/lib/fresh/mod.ts";
import { localTokenEndpoint } from "@/lib/auth/local/protocol.ts";
import { isProviderId } from "@/lib/auth/providers.ts";
import { localAnswerResponse } from "@/lib/http/local_oauth.ts";
import { define } from "@/lib/state.ts";

/** POST /local-oauth/<provider>/token: the local provider's token endpoint. */
export const handler = define.handlers({
  async POST(ctx) {
    const provider = ctx.params.provider;
    if (!isProviderId(provider)) throw new HttpError(404);
    return localAnswerResponse(await localTokenEndpoint(ctx.req, ctx.state.services, provider));
  },
});

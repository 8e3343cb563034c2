import { oauthPreflight, protectedResourceResponse } from "@/lib/http/oauth.ts";
import { define } from "@/lib/state.ts";

/**
 * `/.well-known/oauth-protected-resource/mcp`: the same document at the path-suffixed
 * place RFC 9728 §3.1 derives from the resource `…/mcp`, which MCP clients try first.
 */
export const handler = define.handlers({
  GET: (ctx) => protectedResourceResponse(ctx.state.services.config.appOrigin),
  OPTIONS: () => oauthPreflight(),
});

import type { OperationDoc } from "@/lib/agent/openapi_docs.ts";
import { oauthPreflight, protectedResourceResponse } from "@/lib/http/oauth.ts";
import { PROTECTED_RESOURCE_PATH } from "@/lib/oauth/metadata.ts";
import { ProtectedResourceMetadata } from "@/lib/schemas/oauth.ts";
import { define } from "@/lib/state.ts";

/**
 * The protected resource metadata (RFC 9728) of `/mcp`, the document a `401` from `/mcp`
 * or the agent API points to (`WWW-Authenticate: Bearer resource_metadata=…`).
 */
export const handler = define.handlers({
  GET: (ctx) => protectedResourceResponse(ctx.state.services.config.appOrigin),
  OPTIONS: () => oauthPreflight(),
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: PROTECTED_RESOURCE_PATH,
  tag: "Agent sign-in (OAuth)",
  summary: "Protected resource metadata of /mcp (RFC 9728)",
  description:
    "What `/mcp` is (`resource`, the RFC 8707 indicator to ask tokens for), who issues its tokens (`authorization_servers`: Parley itself) and its scopes. Also served at `/.well-known/oauth-protected-resource/mcp`, where clients probe first.",
  auth: "public",
  responses: {
    "200": { description: "The document", schema: ProtectedResourceMetadata },
  },
}];

import type { OperationDoc } from "@/lib/agent/openapi_docs.ts";
import { oauthPreflight, withOAuthHeaders } from "@/lib/http/oauth.ts";
import { AUTHORIZATION_SERVER_PATH, authorizationServerMetadata } from "@/lib/oauth/metadata.ts";
import { AuthorizationServerMetadata } from "@/lib/schemas/oauth.ts";
import { define } from "@/lib/state.ts";

/**
 * The authorization server metadata (RFC 8414) of Parley as the issuer of `/mcp`'s
 * tokens: its endpoints, PKCE S256 only, public clients only, scopes `read` and `write`.
 */
export const handler = define.handlers({
  GET(ctx) {
    return withOAuthHeaders(
      Response.json(authorizationServerMetadata(ctx.state.services.config.appOrigin), {
        headers: { "cache-control": "public, max-age=3600" },
      }),
    );
  },
  OPTIONS: () => oauthPreflight(),
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: AUTHORIZATION_SERVER_PATH,
  tag: "Agent sign-in (OAuth)",
  summary: "Authorization server metadata (RFC 8414)",
  description:
    "The issuer is the site's origin. Authorization code flow with PKCE (`S256` only), dynamic registration of public clients (`token_endpoint_auth_method: none`), rotating refresh tokens, revocation (RFC 7009), and the issuer in the authorization response (`iss`, RFC 9207).",
  auth: "public",
  responses: {
    "200": { description: "The document", schema: AuthorizationServerMetadata },
  },
}];

import { oauthErr, type OperationDoc } from "@/lib/agent/openapi_docs.ts";
import {
  formParam,
  oauthEndpoint,
  oauthError,
  oauthPreflight,
  readForm,
  requiredParam,
} from "@/lib/http/oauth.ts";
import { getClient } from "@/lib/oauth/clients.ts";
import { revokeToken } from "@/lib/oauth/tokens.ts";
import { RevokeRequestBody } from "@/lib/schemas/oauth.ts";
import { Ok } from "@/lib/schemas/profile.ts";
import { define } from "@/lib/state.ts";

/**
 * POST /oauth/revoke — token revocation (RFC 7009, form-encoded): a refresh token revokes
 * its whole grant, an access token itself. An unknown token is answered 200, as the RFC
 * asks (there is nothing left to revoke).
 */
export const handler = define.handlers({
  POST(ctx) {
    return oauthEndpoint(async () => {
      const { kv } = ctx.state.services;
      const form = await readForm(ctx.req);
      const token = requiredParam(form, "token");
      const clientId = requiredParam(form, "client_id");
      formParam(form, "token_type_hint");
      if (!(await getClient(kv, clientId))) {
        throw oauthError(401, "invalid_client", "Unknown client_id");
      }
      const r = await revokeToken(kv, token, clientId);
      if (!r.ok) {
        throw oauthError(400, "unauthorized_client", "The token was issued to another app");
      }
      return Response.json({ ok: true });
    });
  },
  OPTIONS: () => oauthPreflight(),
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/oauth/revoke",
  tag: "Agent sign-in (OAuth)",
  summary: "Revoke a token (RFC 7009, form-encoded)",
  description:
    "`token` (an access or refresh token) and `client_id`; `token_type_hint` is accepted and not needed. A refresh token disconnects the app (every token of its grant); an access token stops working at once. An unknown or expired token answers 200 too.",
  auth: "public",
  body: RevokeRequestBody,
  bodyType: "form",
  responses: {
    "200": { description: "Revoked (or nothing to revoke)", schema: Ok, example: { ok: true } },
    "400": oauthErr(
      "A missing parameter, or a token of another app",
      "invalid_request",
      "token is required",
    ),
    "401": oauthErr("Unknown client_id", "invalid_client", "Unknown client_id"),
  },
}];

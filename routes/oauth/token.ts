import { oauthErr, type OperationDoc } from "@/lib/agent/openapi_docs.ts";
import { formatScopes, parseScopeParam } from "@/lib/agent/scopes.ts";
import {
  formParam,
  oauthEndpoint,
  oauthError,
  oauthPreflight,
  readForm,
  requiredParam,
} from "@/lib/http/oauth.ts";
import { getClient } from "@/lib/oauth/clients.ts";
import { exchangeCode, refreshGrant, type TokenOutcome } from "@/lib/oauth/tokens.ts";
import { TokenRequestBody, TokenResponse } from "@/lib/schemas/oauth.ts";
import { define } from "@/lib/state.ts";

function answer(outcome: TokenOutcome): Response {
  if (!outcome.ok) throw oauthError(400, outcome.reason, outcome.description);
  const t = outcome.tokens;
  return Response.json({
    access_token: t.accessToken,
    token_type: "Bearer",
    expires_in: t.expiresInSeconds,
    refresh_token: t.refreshToken,
    scope: formatScopes(t.scopes),
  });
}

/**
 * POST /oauth/token — the token endpoint (form-encoded): `authorization_code` with the
 * PKCE verifier, or `refresh_token`, which rotates the refresh token. Public clients
 * identify themselves with `client_id`; errors are RFC 6749 §5.2's.
 */
export const handler = define.handlers({
  POST(ctx) {
    return oauthEndpoint(async () => {
      const { kv, now } = ctx.state.services;
      const form = await readForm(ctx.req);
      const grantType = requiredParam(form, "grant_type");
      if (grantType !== "authorization_code" && grantType !== "refresh_token") {
        throw oauthError(
          400,
          "unsupported_grant_type",
          'grant_type must be "authorization_code" or "refresh_token"',
        );
      }
      const clientId = requiredParam(form, "client_id");
      if (formParam(form, "client_secret") !== null) {
        throw oauthError(
          401,
          "invalid_client",
          "Parley's clients are public: send no client_secret",
        );
      }
      const client = await getClient(kv, clientId);
      if (!client) {
        throw oauthError(401, "invalid_client", "Unknown client_id; register again");
      }
      const resource = formParam(form, "resource");
      if (grantType === "authorization_code") {
        return answer(
          await exchangeCode(kv, {
            code: requiredParam(form, "code"),
            clientId,
            redirectUri: requiredParam(form, "redirect_uri"),
            codeVerifier: requiredParam(form, "code_verifier"),
            resource,
          }, now()),
        );
      }
      const scopeParam = formParam(form, "scope");
      const scopes = scopeParam === null ? null : parseScopeParam(scopeParam);
      if (scopes === null && scopeParam !== null) {
        throw oauthError(400, "invalid_scope", "scope may name only read and write");
      }
      return answer(
        await refreshGrant(kv, {
          refreshToken: requiredParam(form, "refresh_token"),
          clientId,
          scopes: scopes && scopes.length ? scopes : null,
          resource,
        }, now()),
      );
    });
  },
  OPTIONS: () => oauthPreflight(),
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/oauth/token",
  tag: "Agent sign-in (OAuth)",
  summary: "Exchange a code, or refresh (form-encoded)",
  description:
    "`grant_type=authorization_code` with `code`, `redirect_uri` (exactly the authorize request's), `client_id` and `code_verifier` (PKCE); a code works once, within 60 seconds — redeeming it again revokes what it granted. `grant_type=refresh_token` with `refresh_token` and `client_id`: answers a new access token **and a new refresh token**; the old refresh token stops working, and presenting it again revokes the app's access (reuse detection). `resource`, when sent, must be this server's `/mcp` (RFC 8707). Access tokens last 1 hour, refresh tokens 30 days. Answers carry `Cache-Control: no-store`.",
  auth: "public",
  body: TokenRequestBody,
  bodyType: "form",
  responses: {
    "200": {
      description: "Tokens",
      schema: TokenResponse,
      example: {
        access_token: "parley_at_Vm9JRnNjSmJJeDRNVEtucGQzWkJzeGkwMmRGaGRHVi1B",
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: "parley_rt_QVFZLVRvYzQ4MGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3",
        scope: "read write",
      },
    },
    "400": oauthErr(
      "`invalid_request` (a missing or repeated parameter, not form-encoded), `invalid_grant` (a code or refresh token unknown, expired, used or revoked; a wrong verifier or redirect URI), `invalid_target` (another resource), `invalid_scope`, `unsupported_grant_type`",
      "invalid_grant",
      "code_verifier does not match the code_challenge",
    ),
    "401": oauthErr(
      "`invalid_client`: an unknown `client_id` (register again)",
      "invalid_client",
      "Unknown client_id; register again",
    ),
  },
}];

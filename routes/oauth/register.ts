import { err, oauthErr, type OperationDoc, retryAfter } from "@/lib/agent/openapi_docs.ts";
import { formatScopes, parseScopeParam, SCOPES } from "@/lib/agent/scopes.ts";
import { readJson } from "@/lib/http/body.ts";
import { oauthEndpoint, oauthError, oauthPreflight } from "@/lib/http/oauth.ts";
import { enforceRateLimit } from "@/lib/http/rate_limit.ts";
import { remoteHostname } from "@/lib/http/remote.ts";
import { registerClient } from "@/lib/oauth/clients.ts";
import { CLIENT_NAME_MAX, RegisterClientBody, RegisteredClient } from "@/lib/schemas/oauth.ts";
import { define } from "@/lib/state.ts";

/** Registrations allowed per client address per hour. */
export const REGISTRATIONS_PER_HOUR = 20;
const BODY_LIMIT = 16 * 1024;

/**
 * POST /oauth/register — dynamic client registration (RFC 7591) of a public client: its
 * redirect URIs (https, or http on loopback) and a display name. Anyone may register (an
 * MCP client does so the first time it meets Parley), so it is limited per address.
 */
export const handler = define.handlers({
  POST(ctx) {
    return oauthEndpoint(async () => {
      const { kv, now } = ctx.state.services;
      await enforceRateLimit(
        kv,
        "oauth_register",
        remoteHostname(ctx.info),
        REGISTRATIONS_PER_HOUR,
        3_600_000,
        now(),
      );
      const parsed = RegisterClientBody.safeParse(
        await readJson(ctx.req, { limit: BODY_LIMIT }),
      );
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const code = issue?.path[0] === "redirect_uris"
          ? "invalid_redirect_uri"
          : "invalid_client_metadata";
        throw oauthError(400, code, issue?.message ?? "Invalid client metadata");
      }
      const body = parsed.data;
      const scopes = parseScopeParam(body.scope);
      if (!scopes) {
        throw oauthError(
          400,
          "invalid_client_metadata",
          `scope may name only ${SCOPES.join(" and ")}`,
        );
      }
      const name = (body.client_name ?? "").trim().slice(0, CLIENT_NAME_MAX) || "Unnamed app";
      const client = await registerClient(kv, { name, redirectUris: body.redirect_uris }, now());
      return Response.json({
        client_id: client.id,
        client_id_issued_at: Math.floor(client.createdAt / 1000),
        client_name: client.name,
        redirect_uris: client.redirectUris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        scope: formatScopes(scopes.length ? scopes : SCOPES),
      }, { status: 201 });
    });
  },
  OPTIONS: () => oauthPreflight(),
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/oauth/register",
  tag: "Agent sign-in (OAuth)",
  summary: "Register an app (dynamic client registration, RFC 7591)",
  description:
    `Public clients only: \`token_endpoint_auth_method\` is \`none\` (or left out) and no secret is issued — PKCE S256 proves each code exchange. \`redirect_uris\` (1–10) must be https URLs, or http on a loopback address (127.0.0.1, localhost, [::1]; any port is accepted at authorization time); no fragments. \`client_name\` is shown to the person on the consent page (Parley does not verify it). Unknown fields are ignored. ${REGISTRATIONS_PER_HOUR} registrations an hour per client address.`,
  auth: "public",
  body: RegisterClientBody,
  responses: {
    "201": {
      description: "Registered",
      schema: RegisteredClient,
      example: {
        client_id: "client_3mRk8VbQ1xYz0aB2cD4eFg",
        client_id_issued_at: 1700000000,
        client_name: "Claude Desktop",
        redirect_uris: ["http://127.0.0.1:33418/callback"],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        scope: "read write",
      },
    },
    "400": oauthErr(
      "A redirect URI that is not https or loopback http (`invalid_redirect_uri`), or other bad metadata (`invalid_client_metadata`)",
      "invalid_redirect_uri",
      "redirect URIs must use https, or http on a loopback address (127.0.0.1, localhost or [::1])",
    ),
    "413": oauthErr(
      "Body over 16 KiB",
      "invalid_request",
      "Request body too large (limit 16384 bytes)",
    ),
    "429": {
      ...err(
        `More than ${REGISTRATIONS_PER_HOUR} registrations in an hour from this address`,
        "Rate limit exceeded",
      ),
      headers: retryAfter,
    },
  },
}];

/**
 * Zod schemas of Parley's OAuth endpoints for agents (`/oauth/*`, the `.well-known`
 * documents) and of the profile's "Connected apps": they validate requests and generate
 * `/api/openapi.json`. OAuth errors keep the project's `{error}` shape, with `error` an
 * RFC 6749 code and `error_description` a sentence.
 *
 * @module
 */
import { z } from "zod";
import { type Scope, SCOPES } from "../agent/scopes.ts";
import { redirectUriProblem } from "../oauth/redirect_uris.ts";

/** Longest `client_name` kept (characters; longer names are cut, not refused). */
export const CLIENT_NAME_MAX = 100;
/** Most redirect URIs one app may register. */
export const REDIRECT_URIS_MAX = 10;

/** One scope (lib/agent/scopes.ts). */
const ScopeSchema = z.enum(["read", "write"] satisfies Scope[]);

/** An RFC 6749 / RFC 7591 / RFC 7009 error answer. */
export const OAuthErrorBody = z.object({
  error: z.string().meta({
    description:
      "An OAuth error code: invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope, invalid_target, invalid_redirect_uri or invalid_client_metadata",
  }),
  error_description: z.string().optional(),
  retryAfter: z.number().optional(),
}).meta({ id: "OAuthError" });

const RedirectUri = z.string({ error: "redirect_uris must be strings" }).superRefine((uri, ctx) => {
  const problem = redirectUriProblem(uri);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/**
 * `POST /oauth/register` (RFC 7591): public clients only. Unknown metadata is ignored, as
 * the RFC asks.
 */
export const RegisterClientBody = z.object({
  redirect_uris: z.array(RedirectUri, { error: "redirect_uris must be an array of URLs" })
    .min(1, { error: "redirect_uris must name at least one URL" })
    .max(REDIRECT_URIS_MAX, {
      error: `redirect_uris may name at most ${REDIRECT_URIS_MAX} URLs`,
    })
    .meta({
      description: "https URLs, or http on a loopback address (127.0.0.1, localhost, [::1])",
    }),
  client_name: z.string({ error: "client_name must be a string" }).optional().meta({
    description:
      `Shown on the consent page and in Connected apps (cut to ${CLIENT_NAME_MAX} characters)`,
  }),
  token_endpoint_auth_method: z.literal("none", {
    error: 'token_endpoint_auth_method must be "none": Parley registers public clients only',
  }).optional(),
  grant_types: z.array(
    z.enum(["authorization_code", "refresh_token"], {
      error: 'grant_types may hold only "authorization_code" and "refresh_token"',
    }),
    { error: "grant_types must be an array" },
  ).optional(),
  response_types: z.array(
    z.literal("code", { error: 'response_types may hold only "code"' }),
    { error: "response_types must be an array" },
  ).optional(),
  scope: z.string({ error: "scope must be a string" }).optional().meta({
    description: "Space-separated; Parley knows `read` and `write`",
  }),
  client_uri: z.string().optional(),
  logo_uri: z.string().optional(),
}).meta({ id: "RegisterClient" });

/** The registration answer (RFC 7591 §3.2.1). */
export const RegisteredClient = z.object({
  client_id: z.string(),
  client_id_issued_at: z.int().meta({ description: "Unix seconds" }),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
  token_endpoint_auth_method: z.literal("none"),
  scope: z.string(),
}).meta({ id: "RegisteredClient" });

/** `POST /oauth/token`, form-encoded. */
export const TokenRequestBody = z.object({
  grant_type: z.enum(["authorization_code", "refresh_token"]),
  client_id: z.string(),
  code: z.string().optional().meta({ description: "authorization_code: the code" }),
  redirect_uri: z.string().optional().meta({
    description: "authorization_code: the redirect URI of the authorize request",
  }),
  code_verifier: z.string().optional().meta({
    description: "authorization_code: the PKCE verifier (43–128 characters)",
  }),
  refresh_token: z.string().optional().meta({ description: "refresh_token: the token" }),
  scope: z.string().optional().meta({
    description: "refresh_token: narrow the new access token to some of the granted scopes",
  }),
  resource: z.string().optional().meta({
    description: "RFC 8707: when sent, it must be this server's `/mcp`",
  }),
}).meta({ id: "TokenRequest" });

/** A token answer (RFC 6749 §5.1). */
export const TokenResponse = z.object({
  access_token: z.string().meta({ description: "`parley_at_…`, opaque, 1 hour" }),
  token_type: z.literal("Bearer"),
  expires_in: z.int().meta({ description: "Seconds (3600)" }),
  refresh_token: z.string().meta({
    description: "`parley_rt_…`, 30 days, rotated: each refresh answers a new one",
  }),
  scope: z.string(),
}).meta({ id: "TokenResponse" });

/** `POST /oauth/revoke` (RFC 7009), form-encoded. */
export const RevokeRequestBody = z.object({
  token: z.string(),
  client_id: z.string(),
  token_type_hint: z.enum(["access_token", "refresh_token"]).optional(),
}).meta({ id: "RevokeRequest" });

/** The RFC 9728 document. */
export const ProtectedResourceMetadata = z.object({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  bearer_methods_supported: z.array(z.string()),
  resource_name: z.string(),
  resource_documentation: z.string(),
}).meta({ id: "ProtectedResourceMetadata" });

/** The RFC 8414 document. */
export const AuthorizationServerMetadata = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  registration_endpoint: z.string(),
  revocation_endpoint: z.string(),
  scopes_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
  response_modes_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  revocation_endpoint_auth_methods_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  authorization_response_iss_parameter_supported: z.boolean(),
  service_documentation: z.string(),
}).meta({ id: "AuthorizationServerMetadata" });

/** One app a person connected (an approved grant). */
export const ConnectedAppSchema = z.object({
  id: z.string().meta({ description: "`grant_…`" }),
  clientName: z.string(),
  scopes: z.array(ScopeSchema),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
}).meta({ id: "ConnectedApp" });

export const ConnectedAppList = z.object({
  apps: z.array(ConnectedAppSchema),
}).meta({ id: "ConnectedAppList" });

/** `scopes` of a new agent key: at least one of `read`, `write` (both when left out). */
export const KeyScopesField = z.array(
  z.enum(["read", "write"] satisfies Scope[], {
    error: 'scopes may hold only "read" and "write"',
  }),
  { error: 'scopes must be an array of "read" and "write"' },
).min(1, { error: "scopes must name at least one scope" }).max(SCOPES.length * 2);

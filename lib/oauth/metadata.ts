/**
 * The discovery documents of Parley's MCP resource server and of Parley as its own
 * authorization server: RFC 9728 protected resource metadata (what `/mcp` is and who
 * issues its tokens) and RFC 8414 authorization server metadata (the endpoints, PKCE
 * S256, public clients). Both are served at the origin's root.
 *
 * @module
 */
import { SCOPES } from "../agent/scopes.ts";

/** Path of the RFC 9728 document (also served with `/mcp` appended). */
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";
/** Path of the RFC 8414 document. */
export const AUTHORIZATION_SERVER_PATH = "/.well-known/oauth-authorization-server";

/**
 * The resource indicator (RFC 8707) of Parley's MCP server: what `resource` must name.
 *
 * @example
 * ```ts
 * mcpResource("https://parley.example"); // "https://parley.example/mcp"
 * ```
 */
export function mcpResource(origin: string): string {
  return `${origin}/mcp`;
}

/**
 * Where the protected resource metadata is: the `resource_metadata` of a 401.
 *
 * @example
 * ```ts
 * protectedResourceMetadataUrl("https://parley.example");
 * // "https://parley.example/.well-known/oauth-protected-resource"
 * ```
 */
export function protectedResourceMetadataUrl(origin: string): string {
  return `${origin}${PROTECTED_RESOURCE_PATH}`;
}

/**
 * The RFC 9728 document for `origin`.
 *
 * @example
 * ```ts
 * protectedResourceMetadata("https://parley.example").authorization_servers;
 * // ["https://parley.example"]
 * ```
 */
export function protectedResourceMetadata(origin: string) {
  return {
    resource: mcpResource(origin),
    authorization_servers: [origin],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Parley",
    resource_documentation: `${origin}/docs/api`,
  };
}

/**
 * The RFC 8414 document for `origin` (the issuer is the origin itself).
 *
 * @example
 * ```ts
 * authorizationServerMetadata("https://parley.example").token_endpoint;
 * // "https://parley.example/oauth/token"
 * ```
 */
export function authorizationServerMetadata(origin: string) {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    registration_endpoint: `${origin}/oauth/register`,
    revocation_endpoint: `${origin}/oauth/revoke`,
    scopes_supported: [...SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${origin}/docs/api`,
  };
}

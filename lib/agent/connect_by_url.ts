/**
 * How an MCP client connects to Parley by its URL alone (OAuth, lib/oauth/), as the
 * guides show it: the configuration without any key, and the steps the client takes.
 *
 * @module
 */
import { AGENT_RATE_LIMIT } from "../http/agent.ts";

/**
 * The MCP client configuration with no key: the client signs in through OAuth when
 * `/mcp` answers 401.
 *
 * @example
 * ```ts
 * const json = mcpUrlConfig("https://parley.example"); // {"mcpServers": {"parley": {…}}}
 * ```
 */
export function mcpUrlConfig(origin: string): string {
  return JSON.stringify(
    { mcpServers: { parley: { type: "http", url: `${origin}/mcp` } } },
    null,
    2,
  );
}

/**
 * What happens when a client connects by URL, one step a line (Markdown list items).
 *
 * @example
 * ```ts
 * const steps = connectByUrlSteps("https://parley.example"); // ["`POST https://…/mcp` …", …]
 * ```
 */
export function connectByUrlSteps(origin: string): string[] {
  return [
    `The client calls \`${origin}/mcp\` without a credential and gets \`401\` with \`WWW-Authenticate: Bearer realm="parley-agent", resource_metadata="${origin}/.well-known/oauth-protected-resource"\`.`,
    `It reads that document (RFC 9728; also at \`/.well-known/oauth-protected-resource/mcp\`): the resource is \`${origin}/mcp\`, its authorization server is \`${origin}\`, and the scopes are \`read\` and \`write\`.`,
    `It reads \`${origin}/.well-known/oauth-authorization-server\` (RFC 8414) and registers itself at \`POST ${origin}/oauth/register\` (RFC 7591; public client, redirect URIs on https or http loopback).`,
    `It opens \`${origin}/oauth/authorize\` in the person's browser with a PKCE S256 challenge and \`resource=${origin}/mcp\`. The person signs in if needed and sees a consent page naming the app, where it returns to and the scopes asked; they tick what to allow and press **Allow** (or **Deny**).`,
    `The client exchanges the one-time code (60 seconds) at \`POST ${origin}/oauth/token\` with its PKCE verifier for an access token (\`parley_at_…\`, 1 hour) and a refresh token (\`parley_rt_…\`, 30 days, rotated on every refresh — an old one presented again disconnects the app).`,
    `It sends \`Authorization: Bearer parley_at_…\` on \`/mcp\` (and may on \`/api/agent/*\`), acting as that person with the scopes they allowed, ${AGENT_RATE_LIMIT} requests a minute per connected app.`,
    `The person sees the app under **Connected apps** on ${origin}/profile and can revoke it at once; the app can also revoke its tokens at \`POST ${origin}/oauth/revoke\` (RFC 7009).`,
  ];
}

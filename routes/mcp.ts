import { handleMcpRequest, MCP_TOOLS } from "@/lib/agent/mcp.ts";
import { scopesNeeded } from "@/lib/agent/mcp_scopes.ts";
import { formatScopes, normalizeScopes } from "@/lib/agent/scopes.ts";
import { type AgentCall, authenticateAgent, missingScope, withHeaders } from "@/lib/http/agent.ts";
import { protectedResourceMetadataUrl } from "@/lib/oauth/metadata.ts";
import { batchRefusal, foreignRequestRefusal, mcpHostPolicy } from "@/lib/agent/mcp_guard.ts";
import { DEFAULT_BODY_LIMIT, readTextLimited } from "@/lib/http/body.ts";
import { type Context, HttpError } from "@/lib/fresh/mod.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { remoteHostname } from "@/lib/http/remote.ts";
import { rateLimitHeaders } from "@/lib/limits/window.ts";
import { type AppState, define } from "@/lib/state.ts";

/** Whether every JSON-RPC message of a POST body is a `tools/call` request. */
function onlyToolCalls(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.length > 0 &&
    messages.every((m) =>
      m !== null && typeof m === "object" && (m as { method?: unknown }).method === "tools/call"
    );
}

/**
 * POST `/mcp` — the Model Context Protocol server (Streamable HTTP, stateless; see
 * lib/agent/mcp.ts), an OAuth 2.1 protected resource. The door is the agent API's: an
 * `Authorization: Bearer agent_…` key or an OAuth access token (lib/oauth/),
 * docs/interface.md#agent-api's 401 with a `WWW-Authenticate` naming the protected resource
 * metadata, and the same per-key (per-grant) budget, each HTTP request counting one, with
 * `X-RateLimit-*` on every answer. Over the budget, a request that only calls tools is
 * answered by the tools as a tool error ("Rate limit exceeded", which a model can read and
 * wait on); any other request gets the agent API's 429. A request that needs a scope the
 * credential lacks (a write tool with a `read`-only token) is refused whole with 403 and
 * `WWW-Authenticate: Bearer error="insufficient_scope"` (lib/agent/mcp_scopes.ts).
 */
async function serve(ctx: Context<AppState>): Promise<Response> {
  // DNS rebinding: a foreign Host or Origin is refused before the key is even looked at.
  const foreign = foreignRequestRefusal(ctx.req, mcpHostPolicy(ctx.state.services.config));
  if (foreign) return foreign;
  let agent: AgentCall | undefined;
  let limited: HttpError | undefined;
  try {
    agent = await authenticateAgent(
      ctx.state.services,
      ctx.req.headers.get("authorization"),
      remoteHostname(ctx.info),
    );
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    if (err.status !== 429) return errorResponse(err);
    limited = err;
  }
  const { kv, now } = ctx.state.services;
  try {
    let parsedBody: unknown;
    let forward = ctx.req;
    if (ctx.req.method === "POST") {
      const text = await readTextLimited(ctx.req, DEFAULT_BODY_LIMIT);
      try {
        parsedBody = JSON.parse(text);
      } catch {
        // Not JSON: the transport answers its JSON-RPC parse error.
        forward = new Request(ctx.req.url, {
          method: "POST",
          headers: ctx.req.headers,
          body: text,
        });
      }
    }
    const batch = batchRefusal(parsedBody);
    if (batch) return withHeaders(batch, agent ? rateLimitHeaders(agent.rate) : limited!.headers);
    if (limited && !onlyToolCalls(parsedBody)) return errorResponse(limited);
    if (agent) {
      const { credential } = agent;
      const lacking = scopesNeeded(parsedBody, MCP_TOOLS)
        .filter((s) => !credential.scopes.includes(s));
      if (lacking.length) {
        const wanted = formatScopes(normalizeScopes([...credential.scopes, ...lacking]));
        const err = missingScope(credential, lacking[0]);
        return withHeaders(errorResponse(err), {
          ...rateLimitHeaders(agent.rate),
          "www-authenticate":
            `Bearer error="insufficient_scope", scope="${wanted}", resource_metadata="${
              protectedResourceMetadataUrl(ctx.state.services.config.appOrigin)
            }", error_description="${err.message}"`,
        });
      }
    }
    const userId = agent?.credential.userId ?? "";
    const res = await handleMcpRequest(forward, {
      kv,
      now,
      userId,
      credential: agent?.credential,
      limited,
      limits: ctx.state.services.config.limits,
      embedder: ctx.state.services.embedder,
      origin: ctx.state.services.config.appOrigin,
      llm: ctx.state.services.llm,
    }, parsedBody);
    return withHeaders(res, agent ? rateLimitHeaders(agent.rate) : limited!.headers);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    const headers = agent ? rateLimitHeaders(agent.rate) : {};
    return withHeaders(errorResponse(err), { ...headers, ...err.headers });
  }
}

/**
 * GET (a server-to-client event stream) and DELETE (ending a session) have nothing to act on
 * in a stateless server: 405, which the MCP transport defines as "no stream here". An empty
 * 200 stream instead is one a client (the SDK's) reopens about once a second for as long as
 * it stays connected, spending the key's budget on nothing. Neither spends the budget.
 */
function noStreamOrSession(ctx: Context<AppState>): Response {
  const foreign = foreignRequestRefusal(ctx.req, mcpHostPolicy(ctx.state.services.config));
  if (foreign) return foreign;
  return Response.json({
    jsonrpc: "2.0",
    error: {
      code: -32000,
      message: "Method not allowed: this server is stateless; send JSON-RPC requests with POST.",
    },
    id: null,
  }, { status: 405, headers: { allow: "POST" } });
}

export const handler = define.handlers({
  POST: serve,
  GET: noStreamOrSession,
  DELETE: noStreamOrSession,
});

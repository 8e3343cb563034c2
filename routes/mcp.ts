import { handleMcpRequest } from "@/lib/agent/mcp.ts";
import { batchRefusal, foreignRequestRefusal, mcpHostPolicy } from "@/lib/agent/mcp_guard.ts";
import { type AgentCall, authenticateAgent, withHeaders } from "@/lib/http/agent.ts";
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
 * `/mcp` — the Model Context Protocol server (Streamable HTTP, stateless; see
 * lib/agent/mcp.ts). The door is the agent API's: the same `Authorization: Bearer agent_…`
 * key, docs/interface.md#agent-api's 401 with `WWW-Authenticate`, and the same per-key budget, each HTTP
 * request counting one, with `X-RateLimit-*` on every answer. Over the budget, a request
 * that only calls tools is answered by the tools as a tool error ("Rate limit exceeded",
 * which a model can read and wait on); any other request gets the agent API's 429.
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
    const userId = agent?.key.userId ?? "";
    const res = await handleMcpRequest(forward, {
      kv,
      now,
      userId,
      limited,
      limits: ctx.state.services.config.limits,
      origin: ctx.state.services.config.appOrigin,
    }, parsedBody);
    return withHeaders(res, agent ? rateLimitHeaders(agent.rate) : limited!.headers);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    const headers = agent ? rateLimitHeaders(agent.rate) : {};
    return withHeaders(errorResponse(err), { ...headers, ...err.headers });
  }
}

export const handler = define.handlers({
  POST: serve,
  GET: serve,
  DELETE: serve,
});

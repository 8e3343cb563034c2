import { type OperationDoc, rateLimited, unauthorizedKey } from "@/lib/agent/openapi_docs.ts";
import { AGENT_RATE_LIMIT, requireAgent } from "@/lib/http/agent.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { authorOf } from "@/lib/profile/profiles.ts";
import { AgentMe, INVALID_KEY_ERROR } from "@/lib/schemas/agent.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/agent/me — who the key (or OAuth token) acts as, what it may do, and its
 * rate-limit budget.
 */
export const handler = define.handlers({
  async GET(ctx) {
    // Any credential may ask who it is, whatever its scopes.
    const { credential: key, rate } = requireAgent(ctx.state, null);
    const author = await authorOf(ctx.state.services.kv, key.userId);
    if (!author) throw new HttpError(401, INVALID_KEY_ERROR);
    return Response.json({
      userId: author.id,
      name: author.name,
      avatar: author.avatar,
      key: { id: key.id, name: key.name, prefix: key.prefix, scopes: key.scopes },
      rateLimit: {
        limit: rate.limit,
        remaining: rate.remaining,
        reset: Math.ceil(rate.resetAt / 1000),
      },
    });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/agent/me",
  tag: "Agent",
  summary: "Who this key acts as, and its remaining budget",
  auth: "apiKey",
  responses: {
    "200": {
      description: "The key's owner (`userId` is the `author.id` of what you write)",
      schema: AgentMe,
      example: {
        userId: "u_9f2c",
        name: "Ada",
        avatar: "",
        key: {
          id: "key_52guKWMKZ9Wo",
          name: "research agent",
          prefix: "agent_VMoIFs…",
          scopes: ["read", "write"],
        },
        rateLimit: { limit: AGENT_RATE_LIMIT, remaining: 59, reset: 1700000060 },
      },
    },
    "401": unauthorizedKey,
    "429": rateLimited,
  },
}];

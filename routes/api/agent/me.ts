import { agentRoute } from "@/lib/http/agent.ts";
import { HttpError } from "@/lib/http/errors.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { authorOf } from "@/lib/profile/profiles.ts";
import { INVALID_KEY_ERROR } from "@/lib/schemas/agent.ts";
import type { AppState } from "@/lib/state.ts";

/** GET /api/agent/me — who the key acts as, and its rate-limit budget. */
export const handler: Handlers<unknown, AppState> = {
  GET: agentRoute(async (_req, ctx, { key, rate }) => {
    const author = await authorOf(ctx.state.services.kv, key.userId);
    if (!author) throw new HttpError(401, INVALID_KEY_ERROR);
    return Response.json({
      userId: author.id,
      name: author.name,
      avatar: author.avatar,
      key: { id: key.id, name: key.name, prefix: key.prefix },
      rateLimit: {
        limit: rate.limit,
        remaining: rate.remaining,
        reset: Math.ceil(rate.resetAt / 1000),
      },
    });
  }),
};

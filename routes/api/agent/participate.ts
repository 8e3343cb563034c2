import type { Handlers } from "@/lib/fresh/types.ts";
import { readTextLimited } from "@/lib/http/body.ts";
import { HttpError, jsonError } from "@/lib/http/errors.ts";
import { participate, ParticipationError } from "@/lib/participation/participate.ts";
import { ParticipateBody, PARTICIPATION_FAILED } from "@/lib/schemas/participation.ts";
import { enforceRateLimit } from "@/lib/http/rate_limit.ts";
import { rateLimitHeaders } from "@/lib/limits/window.ts";
import { PostingLimitError } from "@/lib/limits/posting.ts";
import { rateLimitedError } from "@/lib/http/outcome.ts";
import { parseInput } from "@/lib/schemas/parse.ts";
import type { AppState } from "@/lib/state.ts";

/** SPEC.md: 10 requests per minute per user and IP. */
export const PARTICIPATE_RATE_LIMIT = 10;
const RATE_WINDOW_MS = 60_000;
const BODY_LIMIT = 8 * 1024;

/** The body as JSON; an empty body means "all defaults". */
async function readOptionalJson(req: Request): Promise<unknown> {
  const text = await readTextLimited(req, BODY_LIMIT);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Invalid JSON body");
  }
}

/**
 * POST /api/agent/participate — the signed-in user's agent asks a new question or
 * replies to an existing one (session only: a request carrying an API key is refused
 * with 401, whatever else it carries).
 */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const { kv, llm, now, config } = ctx.state.services;
    const user = ctx.state.user;
    // Session only. A bearer credential also skips the cross-site check (middleware),
    // so honouring a cookie that rides along with one would open a CSRF hole.
    if (!user || req.headers.has("authorization")) return jsonError(401, "Unauthorized");
    try {
      const input = parseInput(ParticipateBody, await readOptionalJson(req));
      const limit = await enforceRateLimit(
        kv,
        "participate",
        `${user.id}:${ctx.remoteAddr.hostname}`,
        PARTICIPATE_RATE_LIMIT,
        RATE_WINDOW_MS,
        now(),
      );
      if (!llm) {
        console.error("POST /api/agent/participate: no language model (set LLM_API_KEY)");
        return jsonError(500, PARTICIPATION_FAILED);
      }
      const random = ctx.state.services.random ?? Math.random;
      const result = await participate(
        { kv, llm, now, random, limits: config.limits },
        user.id,
        input,
      );
      return Response.json(result, { headers: rateLimitHeaders(limit) });
    } catch (err) {
      if (err instanceof HttpError) return err.toResponse();
      if (err instanceof PostingLimitError) return rateLimitedError(err.outcome).toResponse();
      if (err instanceof ParticipationError) {
        console.error(`POST /api/agent/participate: ${err.message}`);
      } else {
        console.error("POST /api/agent/participate: failed", err);
      }
      return jsonError(500, PARTICIPATION_FAILED);
    }
  },
};

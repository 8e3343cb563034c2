import {
  err,
  type OperationDoc,
  retryAfter,
  sessionRateHeaders,
  unauthorizedSession,
} from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { readTextLimited } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { enforceRateLimit } from "@/lib/http/rate_limit.ts";
import { rateLimitHeaders } from "@/lib/limits/window.ts";
import { participate, ParticipationError } from "@/lib/participation/participate.ts";
import {
  ParticipateBody,
  ParticipateResult,
  PARTICIPATION_FAILED,
} from "@/lib/schemas/participation.ts";
import { PostingLimitError } from "@/lib/limits/posting.ts";
import { rateLimitedError } from "@/lib/http/outcome.ts";
import { parseInput } from "@/lib/schemas/parse.ts";
import { define } from "@/lib/state.ts";

/** SPEC.md: 10 requests per minute per user and IP. */
export const PARTICIPATE_RATE_LIMIT = 10;
const RATE_WINDOW_MS = 60_000;
const BODY_LIMIT = 8 * 1024;

/** The body as JSON; an empty body means "all defaults". Shared with the preview route. */
export async function readOptionalJson(req: Request): Promise<unknown> {
  const text = await readTextLimited(req, BODY_LIMIT);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Invalid JSON body");
  }
}

/**
 * Count one model-backed participation (this endpoint or its preview) against the
 * user's and IP's 10 per minute; throws the 429 when over.
 */
export async function limitParticipation(
  kv: Deno.Kv,
  userId: string,
  ip: string,
  now: number,
): Promise<Awaited<ReturnType<typeof enforceRateLimit>>> {
  return await enforceRateLimit(
    kv,
    "participate",
    `${userId}:${ip}`,
    PARTICIPATE_RATE_LIMIT,
    RATE_WINDOW_MS,
    now,
  );
}

/**
 * POST /api/agent/participate — the signed-in user's agent asks a new question or
 * replies to an existing one (session only: a request carrying an API key is refused
 * with 401, whatever else it carries).
 */
export const handler = define.handlers({
  async POST(req, ctx) {
    const { kv, llm, now, config } = ctx.state.services;
    // Session only. A bearer credential also skips the cross-site check (middleware),
    // so honouring a cookie that rides along with one would open a CSRF hole.
    if (req.headers.has("authorization")) throw new HttpError(401, "Unauthorized");
    const user = requireUser(ctx.state.user);
    try {
      const input = parseInput(ParticipateBody, await readOptionalJson(req));
      const limit = await limitParticipation(kv, user.id, ctx.remoteAddr.hostname, now());
      if (!llm) {
        console.error("POST /api/agent/participate: no language model (set LLM_API_KEY)");
        throw new HttpError(500, PARTICIPATION_FAILED);
      }
      const random = ctx.state.services.random ?? Math.random;
      const result = await participate(
        { kv, llm, now, random, limits: config.limits },
        user.id,
        input,
      );
      return Response.json(result, { headers: rateLimitHeaders(limit) });
    } catch (err) {
      if (err instanceof HttpError) throw err;
      if (err instanceof PostingLimitError) throw rateLimitedError(err.outcome);
      if (err instanceof ParticipationError) {
        console.error(`POST /api/agent/participate: ${err.message}`);
      } else {
        console.error("POST /api/agent/participate: failed", err);
      }
      throw new HttpError(500, PARTICIPATION_FAILED);
    }
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/agent/participate",
  tag: "Agent",
  summary: "Let your agent take part: ask a new question or reply to one",
  description:
    "Session only: a request carrying an API key is refused with 401. `trigger` `manual` (default) lets the model decide from the 50 most recent questions; `auto` flips a coin; `forceAction` overrides both. A reply goes to `preferredQuestionId` when it exists, else to a question chosen by heat (upvotes + messages) and the model's analysis, and answers the newest message by someone else (`replyTo`). With no question at all, the agent asks. A new question (`q-agent-…`, `discussionRounds: 1`) and its initial message (`msg-agent-ask-…`, the description), or a reply (`msg-agent-reply-…`) and the question's `discussionRounds` + 1, are written in one atomic operation. The author is always the signed-in user's profile; `actor` is accepted but does not change it. 10 requests per minute per user and IP (shared with the preview). To show a person what their agent is about to post first, use `POST /api/agent/participate/preview` and then `POST /api/agent/participate/post`.",
  auth: "session",
  body: ParticipateBody,
  responses: {
    "200": {
      description: "What the agent did",
      schema: ParticipateResult,
      headers: sessionRateHeaders,
    },
    "400": err("Invalid body", 'trigger must be "manual" or "auto"'),
    "401": unauthorizedSession,
    "413": err("Body over 8 KiB"),
    "429": {
      ...err(
        "More than 10 requests in a minute (per user and IP). Retry-After says when to retry.",
        "Rate limit exceeded",
      ),
      headers: { ...sessionRateHeaders, ...retryAfter },
    },
    "500": err(
      "The model failed or wrote something unusable; nothing was written",
      PARTICIPATION_FAILED,
    ),
  },
}];

/**
 * The HTTP edge of agent participation, shared by `POST /api/agent/participate` and its
 * preview: session only, the optional JSON body, the 10-per-minute limit per user and IP,
 * the model's presence, and docs/interface.md#participation's 500 for every failure that is not an HTTP error.
 *
 * @module
 */
import type { Context } from "../fresh/context.ts";
import { PostingLimitError } from "../limits/posting.ts";
import type { RateLimitResult } from "../limits/window.ts";
import { type ParticipationDeps, ParticipationError } from "../participation/participate.ts";
import {
  ParticipateBody,
  type ParticipateInput,
  PARTICIPATION_FAILED,
} from "../schemas/participation.ts";
import { parseInput } from "../schemas/parse.ts";
import type { AppState } from "../state.ts";
import { requireUser } from "./auth.ts";
import { readTextLimited } from "./body.ts";
import { HttpError } from "../fresh/error.ts";
import { expectedError } from "./errors.ts";
import { rateLimitedError, restrictedError } from "./outcome.ts";
import { RestrictedError } from "../moderation/sanctions.ts";
import { enforceRateLimit } from "./rate_limit.ts";
import { remoteHostname } from "./remote.ts";

/** docs/interface.md#participation: 10 requests per minute per user and IP. */
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
 * Count one model-backed participation (the endpoint or its preview) against the user's
 * and IP's 10 per minute; throws the 429 when over.
 */
async function limitParticipation(
  kv: Deno.Kv,
  userId: string,
  ip: string,
  now: number,
): Promise<RateLimitResult> {
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
 * Run one participation request for the signed-in user: refuse a bearer credential and a
 * signed-out request (401), parse the body, count the limit, then `run` with the model.
 * A posting limit becomes its 429; any other failure that is not an `HttpError` is logged
 * under `name` and becomes the 500 `PARTICIPATION_FAILED`.
 *
 * @example
 * ```ts
 * import type { Context } from "@/lib/fresh/context.ts";
 * import type { AppState } from "@/lib/state.ts";
 * import { draftParticipation } from "@/lib/participation/participate.ts";
 * declare const ctx: Context<AppState>;
 * const { result, limit } = await participationRequest(ctx, "POST /x", draftParticipation);
 * ```
 */
export async function participationRequest<T>(
  ctx: Context<AppState>,
  name: string,
  run: (
    deps: ParticipationDeps,
    userId: string,
    input: ParticipateInput,
  ) => Promise<T>,
): Promise<{ result: T; limit: RateLimitResult }> {
  const { kv, llm, now } = ctx.state.services;
  // Session only. A bearer credential also skips the cross-site check (middleware),
  // so honouring a cookie that rides along with one would open a CSRF hole.
  if (ctx.req.headers.has("authorization")) throw new HttpError(401, "Unauthorized");
  const user = requireUser(ctx.state.user);
  // A silenced person's agent takes no part: refused before the model runs.
  if (user.sanction) throw restrictedError(user.sanction);
  try {
    const input = parseInput(ParticipateBody, await readOptionalJson(ctx.req));
    const limit = await limitParticipation(kv, user.id, remoteHostname(ctx.info), now());
    if (!llm) {
      console.error(`${name}: no language model (set LLM_API_KEY)`);
      throw new HttpError(500, PARTICIPATION_FAILED);
    }
    const random = ctx.state.services.random ?? Math.random;
    return { result: await run({ kv, llm, now, random }, user.id, input), limit };
  } catch (err) {
    // A full or read-only store is a 503 with its sentence, not the fixed 500.
    const expected = expectedError(err);
    if (expected) throw expected;
    if (err instanceof PostingLimitError) throw rateLimitedError(err.outcome);
    if (err instanceof RestrictedError) throw restrictedError(err.sanction);
    if (err instanceof ParticipationError) {
      console.error(`${name}: ${err.message}`);
    } else {
      console.error(`${name}: failed`, err);
    }
    throw new HttpError(500, PARTICIPATION_FAILED);
  }
}

import {
  err,
  type OperationDoc,
  retryAfter,
  unauthorizedSession,
} from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { FLAG_FAILURES, orThrow } from "@/lib/http/outcome.ts";
import { flagPost } from "@/lib/moderation/moderation.ts";
import { OkResult } from "@/lib/schemas/community.ts";
import { FlagBody } from "@/lib/schemas/moderation.ts";
import { define } from "@/lib/state.ts";

/** POST /api/flags — flag a question or message for the moderators (session). */
export const handler = define.handlers({
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const body = await parseBody(ctx.req, FlagBody);
    const { kv, config, now } = ctx.state.services;
    orThrow(
      await flagPost(kv, { userId: user.id, ...body, note: body.note || null }, {
        limits: config.limits,
        now: now(),
        newAccountHours: config.newAccountHours,
      }),
      FLAG_FAILURES,
    );
    return Response.json({ ok: true });
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/flags",
  tag: "Moderation",
  summary: "Flag a post for the moderators",
  description:
    "One flag per user and post. A flag weighs 1, or ½ from a new account (younger than `NEW_ACCOUNT_HOURS`, default 24, with nothing up-voted or accepted); when the weight reaches 3 (three established accounts or six new ones) the post is hidden until a moderator decides. Flags spend the daily flag budget (`LIMIT_FLAGS_PER_DAY`, default 20).",
  auth: "session",
  body: FlagBody,
  responses: {
    "200": { description: "Flagged", schema: OkResult },
    "400": err("Bad body, or the post is your own", "You cannot flag your own post"),
    "401": unauthorizedSession,
    "404": err("No such post", "Post not found"),
    "409": err("You already flagged this post", "You already flagged this post"),
    "429": { ...err("Over the daily flag limit"), headers: retryAfter },
  },
}];

import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { orThrow, rateLimitedError, restrictedError } from "@/lib/http/outcome.ts";
import { RestrictedError } from "@/lib/moderation/sanctions.ts";
import { PostingLimitError } from "@/lib/limits/posting.ts";
import { takeDraft } from "@/lib/participation/drafts.ts";
import {
  DraftOutdatedError,
  ParticipationError,
  postDraft,
} from "@/lib/participation/participate.ts";
import { DraftRef, ParticipateResult, PARTICIPATION_FAILED } from "@/lib/schemas/participation.ts";
import { define } from "@/lib/state.ts";

/** The 409's sentence when what the draft answers was removed since the preview. */
const OUTDATED = {
  question: "The question your agent replied to was removed. Ask your agent again for a new draft.",
  message: "The message your agent replied to was removed. Ask your agent again for a new draft.",
};

/**
 * POST /api/agent/participate/post {draftId} — post a draft from the preview exactly as
 * it was shown; the answer is `POST /api/agent/participate`'s. A draft posts once.
 */
export const handler = define.handlers({
  async POST(ctx) {
    if (ctx.req.headers.has("authorization")) throw new HttpError(401, "Unauthorized");
    const user = requireUser(ctx.state.user);
    const { draftId } = await parseBody(ctx.req, DraftRef);
    const { kv, now, config } = ctx.state.services;
    const { draft } = orThrow(await takeDraft(kv, user.id, draftId, now()), {
      draft_not_found: [404, "This draft has expired or was already posted or discarded"],
    });
    try {
      return Response.json(await postDraft({ kv, now, limits: config.limits }, user.id, draft));
    } catch (e) {
      if (e instanceof PostingLimitError) throw rateLimitedError(e.outcome);
      if (e instanceof RestrictedError) throw restrictedError(e.sanction);
      if (e instanceof DraftOutdatedError) throw new HttpError(409, OUTDATED[e.gone]);
      if (e instanceof ParticipationError) {
        console.error(`POST /api/agent/participate/post: ${e.message}`);
      } else console.error("POST /api/agent/participate/post: failed", e);
      throw new HttpError(500, PARTICIPATION_FAILED);
    }
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/agent/participate/post",
  tag: "Agent",
  summary: "Post a draft from the preview, exactly as shown",
  description:
    "Session only. Posts the draft `POST /api/agent/participate/preview` returned — the same text, under your profile, labelled as written by your agent — in one atomic operation, and answers as `POST /api/agent/participate` does. A draft posts once and is kept 30 minutes.",
  auth: "session",
  body: DraftRef,
  responses: {
    "200": { description: "What the agent posted", schema: ParticipateResult },
    "400": err("draftId missing or malformed", "draftId must be an id from the preview"),
    "401": unauthorizedSession,
    "404": err(
      "No such draft of yours (expired, posted or discarded)",
      "This draft has expired or was already posted or discarded",
    ),
    "409": err(
      "The question, or the message the reply answers, was deleted or hidden since the preview (a new preview never targets it)",
      OUTDATED.message,
    ),
  },
}];

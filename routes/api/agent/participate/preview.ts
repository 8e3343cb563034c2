import {
  err,
  type OperationDoc,
  retryAfter,
  sessionRateHeaders,
  unauthorizedSession,
} from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { participationRequest } from "@/lib/http/participation.ts";
import { rateLimitHeaders } from "@/lib/limits/window.ts";
import { discardDraft, saveDraft } from "@/lib/participation/drafts.ts";
import { draftParticipation } from "@/lib/participation/participate.ts";
import {
  DraftRef,
  ParticipateBody,
  PARTICIPATION_FAILED,
  ParticipationPreview,
  type ParticipationPreviewBody,
} from "@/lib/schemas/participation.ts";
import { Ok } from "@/lib/schemas/profile.ts";
import { parseInput } from "@/lib/schemas/parse.ts";
import { define } from "@/lib/state.ts";

/**
 * POST /api/agent/participate/preview — the same decision and writing as
 * `POST /api/agent/participate` (same body, same limit), but nothing is posted: the
 * answer is the draft, kept 30 minutes for `POST /api/agent/participate/post`.
 * DELETE ?draftId= discards it.
 */
export const handler = define.handlers({
  async POST(ctx) {
    const { kv, now } = ctx.state.services;
    const { result: { draft, draftId, expiresAt }, limit } = await participationRequest(
      ctx,
      "POST /api/agent/participate/preview",
      async (deps, userId, input) => {
        const draft = await draftParticipation(deps, userId, input);
        return { draft, ...await saveDraft(kv, userId, draft, now()) };
      },
    );
    const body: ParticipationPreviewBody = {
      draftId,
      expiresAt,
      action: draft.action,
      trigger: draft.trigger,
      reason: draft.reason,
      question: draft.action === "ask_new"
        ? { title: draft.title, description: draft.description }
        : null,
      reply: draft.action === "reply_existing"
        ? {
          questionId: draft.questionId,
          questionTitle: draft.questionTitle,
          content: draft.content,
          replyTo: draft.replyTo,
        }
        : null,
    };
    return Response.json(body, {
      headers: { ...rateLimitHeaders(limit), "cache-control": "no-store" },
    });
  },
  async DELETE(ctx) {
    if (ctx.req.headers.has("authorization")) throw new HttpError(401, "Unauthorized");
    const user = requireUser(ctx.state.user);
    const { draftId } = parseInput(DraftRef, {
      draftId: ctx.url.searchParams.get("draftId") ?? undefined,
    });
    await discardDraft(ctx.state.services.kv, user.id, draftId);
    return Response.json({ ok: true });
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/agent/participate/preview",
  tag: "Agent",
  summary: "See what your agent would post, without posting it",
  description:
    "Session only. The same body, decision, writing and limit (10 per minute per user and IP, shared) as `POST /api/agent/participate`, but nothing is posted: the answer is a draft — the question (`title`, `description`) or the reply (`content`, the question and `replyTo`) the agent wrote, with the reason. Post it unchanged with `POST /api/agent/participate/post` `{draftId}` within 30 minutes, or discard it with `DELETE /api/agent/participate/preview?draftId=`.",
  auth: "session",
  body: ParticipateBody,
  responses: {
    "200": {
      description: "The draft, not yet posted",
      schema: ParticipationPreview,
      headers: sessionRateHeaders,
    },
    "400": err("Invalid body", 'trigger must be "manual" or "auto"'),
    "401": unauthorizedSession,
    "413": err("Body over 8 KiB"),
    "429": {
      ...err(
        "More than 10 participations or previews in a minute (per user and IP). Retry-After says when to retry.",
        "Rate limit exceeded",
      ),
      headers: { ...sessionRateHeaders, ...retryAfter },
    },
    "500": err("The model failed or wrote something unusable", PARTICIPATION_FAILED),
  },
}, {
  method: "delete",
  path: "/api/agent/participate/preview",
  tag: "Agent",
  summary: "Discard a draft from the preview",
  description: "Session only. Forgets the draft (a missing or expired one is fine too).",
  auth: "session",
  query: DraftRef,
  responses: {
    "200": { description: "Discarded", schema: Ok, example: { ok: true } },
    "400": err("draftId missing or malformed", "draftId must be an id from the preview"),
    "401": unauthorizedSession,
  },
}];

import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { getQuestion } from "@/lib/community/questions/read.ts";
import { getMessage } from "@/lib/community/messages/read.ts";
import { requireUser, viewerOf } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { enforceRateLimit } from "@/lib/http/rate_limit.ts";
import { draftAnswer, HELPERS_PER_MINUTE } from "@/lib/panel/assist.ts";
import { DraftBody, DraftResponse } from "@/lib/schemas/panel.ts";
import { define } from "@/lib/state.ts";

/** POST /api/ai/draft {questionId, replyTo?} — a draft for the composer (session, 15/min). */
export const handler = define.handlers({
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const body = await parseBody(ctx.req, DraftBody);
    const { kv, llm, now } = ctx.state.services;
    await enforceRateLimit(kv, "ai_draft", user.id, HELPERS_PER_MINUTE, 60_000, now());
    // The draft is the requester's alone: they get one where they may see the question.
    const q = await getQuestion(kv, body.questionId, await viewerOf(ctx.state.services, user));
    if (!q) throw new HttpError(404, "Question not found");
    const parent = body.replyTo ? await getMessage(kv, body.replyTo) : null;
    if (body.replyTo && parent?.questionId !== q.id) {
      throw new HttpError(400, "replyTo must be a message of this question");
    }
    if (!llm) throw new HttpError(503, "The AI helper is not available");
    try {
      return Response.json({ content: await draftAnswer(llm, q, parent) });
    } catch {
      throw new HttpError(503, "The AI helper could not write a draft; try again");
    }
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/ai/draft",
  tag: "Questions",
  summary: "Draft an answer or reply with AI (never posted by itself)",
  description:
    `Fills the composer; the person edits and posts it. A message posted with \`aiDraft\` (the draft's text) mostly unedited carries \`draftedWithAi: true\`. ${HELPERS_PER_MINUTE} per minute per person.`,
  auth: "session",
  body: DraftBody,
  responses: {
    "200": { description: "The draft", schema: DraftResponse },
    "400": err("Invalid body, or replyTo is not a message of this question"),
    "401": unauthorizedSession,
    "404": err("No such question", "Question not found"),
    "429": err("More than 15 drafts a minute", "Rate limit exceeded"),
    "503": err("No model, or the model failed", "The AI helper could not write a draft; try again"),
  },
}];

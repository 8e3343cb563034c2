import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { enforceRateLimit } from "@/lib/http/rate_limit.ts";
import { HELPERS_PER_MINUTE, questionIdeas } from "@/lib/panel/assist.ts";
import { IdeasBody, IdeasResponse } from "@/lib/schemas/panel.ts";
import { define } from "@/lib/state.ts";

/** POST /api/ai/question-ideas {keyword, batch?} — 3 question ideas (session, 15/min). */
export const handler = define.handlers({
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const body = await parseBody(ctx.req, IdeasBody);
    const { kv, llm, now } = ctx.state.services;
    await enforceRateLimit(kv, "ai_ideas", user.id, HELPERS_PER_MINUTE, 60_000, now());
    if (!llm) throw new HttpError(503, "The AI helper is not available");
    try {
      return Response.json({ ideas: await questionIdeas(llm, body.keyword, body.batch ?? 0) });
    } catch {
      throw new HttpError(503, "The AI helper could not suggest ideas; try again");
    }
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/ai/question-ideas",
  tag: "Questions",
  summary: "Three question ideas for a keyword",
  description:
    `Send \`batch\` (1, 2, …) for another batch. ${HELPERS_PER_MINUTE} per minute per person.`,
  auth: "session",
  body: IdeasBody,
  responses: {
    "200": { description: "Three ideas", schema: IdeasResponse },
    "400": err("Invalid body", "keyword must be 2 to 60 characters"),
    "401": unauthorizedSession,
    "429": err("More than 15 idea batches a minute", "Rate limit exceeded"),
    "503": err("No model, or the model failed", "The AI helper could not suggest ideas; try again"),
  },
}];

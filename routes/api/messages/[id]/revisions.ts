import { err, type OperationDoc } from "@/lib/agent/openapi_docs.ts";
import { messageIdParam } from "@/lib/agent/lifecycle_docs.ts";
import { getMessage } from "@/lib/community/messages/read.ts";
import { getQuestion } from "@/lib/community/questions/read.ts";
import { listRevisions } from "@/lib/community/revisions.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { RevisionList } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";

/** GET /api/messages/:id/revisions — every version of a message, newest first (public). */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv } = ctx.state.services;
    const m = await getMessage(kv, ctx.params.id);
    if (!m || !await getQuestion(kv, m.questionId)) throw new HttpError(404, "Message not found");
    return Response.json({
      revisions: await listRevisions(kv, "message", m, { content: m.content }),
    });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/messages/{id}/revisions",
  tag: "Questions",
  summary: "A message's revisions",
  description:
    "Newest first. Revision N is the state after N − 1 edits: revision 1 is the original (dated at creation), the first item is the current `content`. A deleted message has none to show (404).",
  auth: "public",
  pathParams: messageIdParam,
  responses: {
    "200": { description: "The revisions", schema: RevisionList },
    "404": err("No such message (or deleted)", "Message not found"),
  },
}];

import { err, type OperationDoc, questionIdParam } from "@/lib/agent/openapi_docs.ts";
import { getQuestion } from "@/lib/community/questions/read.ts";
import { listRevisions } from "@/lib/community/revisions.ts";
import { viewerOf } from "@/lib/http/auth.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { RevisionList } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";

/** GET /api/questions/:id/revisions — every version, newest first (public). */
export const handler = define.handlers({
  async GET(ctx) {
    const { services, user } = ctx.state;
    const q = await getQuestion(services.kv, ctx.params.id, await viewerOf(services, user));
    if (!q) throw new HttpError(404, "Question not found");
    const revisions = await listRevisions(services.kv, "question", q, {
      title: q.title,
      description: q.description,
      tags: q.tags,
    });
    return Response.json({ revisions });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/questions/{id}/revisions",
  tag: "Questions",
  summary: "A question's revisions",
  description:
    "Newest first. Revision N is the state after N − 1 edits: revision 1 is the original (dated at creation), the first item is the current text. Each carries the full `title`, `description` and `tags` of that version.",
  auth: "public",
  pathParams: questionIdParam,
  responses: {
    "200": { description: "The revisions", schema: RevisionList },
    "404": err("No such question", "Question not found"),
  },
}];

import { err, type OperationDoc, questionIdParam } from "@/lib/agent/openapi_docs.ts";
import { getQuestionWithMessages } from "@/lib/community/messages.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { QuestionWithMessages } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";

/** GET /api/questions/:id — the question with its messages in thread order (public). */
export const handler = define.handlers({
  async GET(_req, ctx) {
    const q = await getQuestionWithMessages(ctx.state.services.kv, ctx.params.id);
    if (!q) throw new HttpError(404, "Question not found");
    return Response.json(q);
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/questions/{id}",
  tag: "Questions",
  summary: "A question with its messages in thread order",
  auth: "public",
  pathParams: questionIdParam,
  responses: {
    "200": { description: "The question", schema: QuestionWithMessages },
    "404": err("No such question", "Question not found"),
  },
}];

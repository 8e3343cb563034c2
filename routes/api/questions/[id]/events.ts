import { err, type OperationDoc, questionIdParam, streamsFull } from "@/lib/agent/openapi_docs.ts";
import { getQuestion } from "@/lib/community/questions/read.ts";
import { sseHeadersFor } from "@/lib/http/sse.ts";
import { takeStreamSlot } from "@/lib/http/stream_slots.ts";
import { viewerOf } from "@/lib/http/auth.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { questionEvents } from "@/lib/notifications/question_events.ts";
import { QuestionChanged } from "@/lib/schemas/notifications.ts";
import { define } from "@/lib/state.ts";

/** GET /api/questions/:id/events — the thread's counts, live (SSE). */
export const handler = define.handlers({
  async GET(ctx) {
    const { services } = ctx.state;
    // The slot first: a client over its cap is refused before any read (a flood is cheap).
    const slot = takeStreamSlot(services.config, ctx.info);
    let q;
    try {
      q = await getQuestion(services.kv, ctx.params.id, await viewerOf(services, ctx.state.user));
    } catch (err) {
      slot.release();
      throw err;
    }
    if (!q) {
      slot.release();
      throw new HttpError(404, "Question not found");
    }
    return new Response(questionEvents(services.kv, q.id, { onClose: slot.release }), {
      headers: sseHeadersFor(ctx.req),
    });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/questions/{id}/events",
  tag: "Notifications",
  summary: "A question's counts, live (Server-Sent Events)",
  description:
    "`retry:` first, then `event: changed` with the question's `messageCount`, `upvotes` and `downvotes` at once and after every answer, vote, edit, delete or moderation of its thread (driven by `kv.watch` on the question's version, so a change made by any server instance shows).",
  auth: "public",
  pathParams: questionIdParam,
  responses: {
    "200": {
      description: "An event stream",
      events: { changed: { description: "The current counts", data: QuestionChanged } },
    },
    "404": err("No such question", "Question not found"),
    "503": streamsFull,
  },
}];

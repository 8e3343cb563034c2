import { err, type OperationDoc } from "@/lib/agent/openapi_docs.ts";
import { readableDebate } from "@/lib/debates/access.ts";
import { debateToJson } from "@/lib/debates/store.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { DebateSchema } from "@/lib/schemas/debate.ts";
import { viewerOf } from "@/lib/http/auth.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/debates/:id: one saved debate with its messages and synthesis — for its
 * owner, or for anyone while the owner's debate archive is public; 404 otherwise.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, now } = ctx.state.services;
    const debate = await readableDebate(
      kv,
      ctx.params.id,
      await viewerOf(ctx.state.services, ctx.state.user),
      now(),
    );
    if (!debate) throw new HttpError(404, "Debate not found");
    return Response.json(debateToJson(debate), {
      headers: { "cache-control": "private, no-store" },
    });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/debates/{id}",
  tag: "Debates",
  summary: "One saved debate",
  description:
    "For its owner, or for anyone while the owner's debate archive is public; 404 otherwise, and while moderators have withdrawn it (but to its owner and moderators).",
  auth: "public",
  pathParams: [{ name: "id", description: "Debate id (`debate_…`)" }],
  responses: {
    "200": { description: "The debate", schema: DebateSchema },
    "404": err("No such debate, or it is private or withdrawn by moderators", "Debate not found"),
  },
}];

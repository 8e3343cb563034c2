import { err, type OperationDoc } from "@/lib/agent/openapi_docs.ts";
import { roundtableAccess } from "@/lib/roundtables/access.ts";
import { roundtableToJson } from "@/lib/roundtables/store.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { RoundtableSchema } from "@/lib/schemas/roundtable.ts";
import { viewerOf } from "@/lib/http/auth.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/roundtables/:id: one roundtable with its messages, the host's interjections and
 * the minutes — for its owner, or anyone while the owner's debate archive is public.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, now } = ctx.state.services;
    const r = await roundtableAccess(
      kv,
      ctx.params.id,
      await viewerOf(ctx.state.services, ctx.state.user),
      now(),
    );
    if (!r.ok) throw new HttpError(404, "Roundtable not found");
    return Response.json(roundtableToJson(r.roundtable), {
      headers: { "cache-control": "private, no-store" },
    });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/roundtables/{id}",
  tag: "Roundtables",
  summary: "One roundtable",
  description:
    "Its experts, messages (each naming what it answers in `replyTo`), the host's interjections the run has taken up, and the minutes once written (all AI-written but the host's words). For its owner, or anyone while the owner's debate archive is public; 404 otherwise, and while moderators have withdrawn it (but to its owner and moderators).",
  auth: "public",
  pathParams: [{ name: "id", description: "Roundtable id (`rt_…`)" }],
  responses: {
    "200": { description: "The roundtable", schema: RoundtableSchema },
    "404": err(
      "No such roundtable, or it is private or withdrawn by moderators",
      "Roundtable not found",
    ),
  },
}];

import { err, type OperationDoc, streamsFull } from "@/lib/agent/openapi_docs.ts";
import { roundtableAccess } from "@/lib/roundtables/access.ts";
import { followRoundtable } from "@/lib/roundtables/events.ts";
import { resumePoint } from "@/lib/debates/events.ts";
import { sseHeadersFor } from "@/lib/http/sse.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { takeStreamSlot } from "@/lib/http/stream_slots.ts";
import { ROUNDTABLE_EVENTS, RoundtableEventsQuery } from "@/lib/schemas/roundtable.ts";
import { viewerOf } from "@/lib/http/auth.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/roundtables/:id/events: the roundtable's events replayed from KV after
 * `Last-Event-ID` (or `?lastEventId=`, or from the start), then followed live until `done`
 * or `error` — served by any instance. Who may read: as `GET /api/roundtables/:id`.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, now, config } = ctx.state.services;
    const r = await roundtableAccess(
      kv,
      ctx.params.id,
      await viewerOf(ctx.state.services, ctx.state.user),
      now(),
    );
    if (!r.ok) throw new HttpError(404, "Roundtable not found");
    const after = resumePoint(ctx.req.headers, ctx.url);
    const slot = takeStreamSlot(config, ctx.info);
    return new Response(followRoundtable(kv, r.roundtable.id, after, { onEnd: slot.release }), {
      headers: { ...sseHeadersFor(ctx.req), "X-Accel-Buffering": "no" },
    });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/roundtables/{id}/events",
  tag: "Roundtables",
  summary: "Follow or resume a roundtable's stream (Server-Sent Events)",
  description:
    "The events of `POST /api/roundtables`, stored as they happen, each with `id: <n>`: replayed after the `Last-Event-ID` header (or `?lastEventId=`; absent: from the start), then followed live until `done` or `error`. Any instance serves it. Starts with `retry:`. A `speaking` for a turn that has no `statement` yet restarts that turn (its process died and another continued): drop the turn's partial text. For the owner, or anyone while the owner's debate archive is public; 404 otherwise, and while moderators have withdrawn it (but to its owner and moderators).",
  auth: "public",
  pathParams: [{ name: "id", description: "Roundtable id (`rt_…`)" }],
  query: RoundtableEventsQuery,
  responses: {
    "200": {
      description: "The roundtable's events, streamed",
      events: ROUNDTABLE_EVENTS,
      headers: { "Cache-Control": "no-cache", "Connection": "keep-alive" },
    },
    "404": err(
      "No such roundtable, or it is private or withdrawn by moderators",
      "Roundtable not found",
    ),
    "503": streamsFull,
  },
}];

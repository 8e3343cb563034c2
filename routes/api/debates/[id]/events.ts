import { err, type OperationDoc, streamsFull } from "@/lib/agent/openapi_docs.ts";
import { readableDebate } from "@/lib/debates/access.ts";
import { followDebate, resumePoint } from "@/lib/debates/events.ts";
import { formatSse, SSE_RETRY_MS, sseHeadersFor } from "@/lib/http/sse.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { takeStreamSlot } from "@/lib/http/stream_slots.ts";
import { formatSequenced } from "@/lib/kv/event_log.ts";
import { keys } from "@/lib/kv/keys.ts";
import { DEBATE_EVENTS, DebateEventsQuery } from "@/lib/schemas/debate.ts";
import { viewerOf } from "@/lib/http/auth.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/debates/:id/events: the debate's events, replayed from KV after
 * `Last-Event-ID` (or `?lastEventId=`, or from the start), then followed live until
 * `done` or `error` — served by any instance. Who may read: as `GET /api/debates/:id`.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, now, config } = ctx.state.services;
    const debate = await readableDebate(
      kv,
      ctx.params.id,
      await viewerOf(ctx.state.services, ctx.state.user),
      now(),
    );
    if (!debate) throw new HttpError(404, "Debate not found");
    const headers = { ...sseHeadersFor(ctx.req), "X-Accel-Buffering": "no" };
    const head = await kv.get<number>(keys.debateEventHead(debate.id));
    if (head.value === null && debate.status !== "in_progress") {
      // Saved before debates kept their events: the whole debate as its final event.
      const done = debate.status === "completed"
        ? formatSequenced({
          seq: 1,
          type: "done",
          data: {
            id: debate.id,
            topic: debate.topic,
            messages: debate.messages,
            synthesis: debate.synthesis,
          },
        })
        : formatSequenced({
          seq: 1,
          type: "error",
          data: { message: debate.error ?? "The debate failed." },
        });
      return new Response(formatSse({ retry: SSE_RETRY_MS }) + done, { headers });
    }
    const after = resumePoint(ctx.req.headers, ctx.url);
    if (debate.status !== "in_progress" && head.value !== null && after >= head.value) {
      // A finished debate read to its last event: nothing more will come. 204 is what tells
      // an EventSource to stop reconnecting (an empty stream would be reopened every second).
      return new Response(null, { status: 204, headers: { "cache-control": "no-cache" } });
    }
    const slot = takeStreamSlot(config, ctx.info);
    return new Response(followDebate(kv, debate.id, after, { onEnd: slot.release }), { headers });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/debates/{id}/events",
  tag: "Debates",
  summary: "Follow or resume a debate's stream (Server-Sent Events)",
  description:
    "The events of `POST /api/debate`, stored as they happen, each with `id: <n>`: replayed after the `Last-Event-ID` header (or `?lastEventId=`; absent: from the start), then followed live until `done` or `error`. Any instance serves it, so a dropped stream resumes without losing or repeating text. Starts with `retry:`. A `start` for a turn that has no `message` yet restarts that turn (its process died and another continued): drop the turn's partial text. For the owner, or anyone while the owner's debate archive is public; 404 otherwise, and while moderators have withdrawn it (but to its owner and moderators).",
  auth: "public",
  pathParams: [{ name: "id", description: "Debate id (`debate_…`)" }],
  query: DebateEventsQuery,
  responses: {
    "200": {
      description: "The debate's events, streamed",
      events: DEBATE_EVENTS,
      headers: { "Cache-Control": "no-cache", "Connection": "keep-alive" },
    },
    "204": {
      description:
        "The debate is over and `Last-Event-ID` is its last event: nothing more will come (an EventSource stops reconnecting)",
    },
    "404": err("No such debate, or it is private or withdrawn by moderators", "Debate not found"),
    "503": streamsFull,
  },
}];

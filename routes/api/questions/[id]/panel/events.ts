import { err, type OperationDoc, questionIdParam, streamsFull } from "@/lib/agent/openapi_docs.ts";
import { getQuestionView } from "@/lib/community/questions/read.ts";
import { resumePoint } from "@/lib/debates/events.ts";
import { formatSse, shutdownSignal, SSE_RETRY_MS, sseHeadersFor } from "@/lib/http/sse.ts";
import { takeStreamSlot } from "@/lib/http/stream_slots.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { followLog } from "@/lib/kv/event_log.ts";
import { keys } from "@/lib/kv/keys.ts";
import { type PanelJob, panelLog } from "@/lib/panel/job.ts";
import { PANEL_EVENTS, PanelEventsQuery } from "@/lib/schemas/panel.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/questions/:id/panel/events — the AI expert panel's events (typing, message,
 * skipped, done) replayed after `Last-Event-ID`, then followed live until `done`.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, config } = ctx.state.services;
    if (!(await getQuestionView(kv, ctx.params.id))) {
      throw new HttpError(404, "Question not found");
    }
    const id = ctx.params.id;
    const headers = { ...sseHeadersFor(ctx.req), "X-Accel-Buffering": "no" };
    if (!(await kv.get(keys.panelJob(id))).value) {
      // No panel on this question (opted out, or asked before panels): nothing will come.
      const frames = formatSse({ retry: SSE_RETRY_MS }) + formatSse({ event: "done", data: "{}" });
      return new Response(frames, { headers });
    }
    const after = resumePoint(ctx.req.headers, ctx.url);
    const slot = takeStreamSlot(config, ctx.info);
    const body = followLog(kv, panelLog(id), after, {
      endTypes: ["done"],
      // The client leaving cancels the body, which ends it; so does this server shutting down
      // (clients resume elsewhere). Not `ctx.req.signal`: Deno 2.9 aborts it on a successful
      // response too, and warns of that on first use.
      signal: shutdownSignal(),
      onEnd: slot.release,
      idle: async () => (await kv.get<PanelJob>(keys.panelJob(id))).value?.status !== "running",
    });
    return new Response(body, { headers });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/questions/{id}/panel/events",
  tag: "Questions",
  summary: "Follow the AI expert panel of a question (Server-Sent Events)",
  description:
    "Each event has `id: <n>`; reconnect with `Last-Event-ID` to resume. Ends after `done` (an invitation or a reply to an expert starts new events: reconnect).",
  auth: "public",
  pathParams: questionIdParam,
  query: PanelEventsQuery,
  responses: {
    "200": {
      description: "The panel's events, streamed",
      events: PANEL_EVENTS,
      headers: { "Cache-Control": "no-cache" },
    },
    "404": err("No such question", "Question not found"),
    "503": streamsFull,
  },
}];

import {
  err,
  type OperationDoc,
  retryAfter,
  sessionRateHeaders,
  streamsFull,
  tooLarge,
  unauthorizedSession,
} from "@/lib/agent/openapi_docs.ts";
import { acceptDebate, DEBATE_JOB } from "@/lib/debates/engine.ts";
import type { DebateLocal } from "@/lib/debates/job.ts";
import { jobRunner } from "@/lib/jobs/runner.ts";
import { createEventStream, sseHeadersFor } from "@/lib/http/sse.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { failedWith } from "@/lib/http/errors.ts";
import { enforceRateLimit } from "@/lib/http/rate_limit.ts";
import { DEBATE_EVENTS, DebateRequestSchema } from "@/lib/schemas/debate.ts";
import { asObject, parseInput } from "@/lib/schemas/parse.ts";
import { define } from "@/lib/state.ts";
import { acquireDebateSlot } from "@/lib/debates/capacity.ts";
import { debateCapacityError, restrictedError } from "@/lib/http/outcome.ts";
import { remoteHostname } from "@/lib/http/remote.ts";
import { takeStreamSlot } from "@/lib/http/stream_slots.ts";

/** docs/interface.md#debates: 24 KB request bodies, 8 debates per minute per user per IP. */
const BODY_LIMIT = 24 * 1024;
const RATE_LIMIT = 8;
const RATE_WINDOW_MS = 60_000;

function missingField(body: Record<string, unknown>): boolean {
  const blank = (v: unknown) =>
    v === undefined || v === null || (typeof v === "string" && !v.trim());
  return blank(body.topic) || blank(body.userProfile);
}

/**
 * POST /api/debate: start a debate between the user's agent and an AI opponent and
 * stream it as Server-Sent Events. The debate runs on (and is saved) if the client
 * disconnects.
 */
export const handler = define.handlers({
  async POST(ctx) {
    const { kv, llm, now } = ctx.state.services;
    const user = requireUser(ctx.state.user);
    // A silenced person starts no debate (docs/interface.md#sanctions).
    if (user.sanction) throw restrictedError(user.sanction);
    try {
      const body = asObject(await readJson(ctx.req, { limit: BODY_LIMIT }));
      if (missingField(body)) throw new HttpError(400, "Missing topic or userProfile");
      const request = parseInput(DebateRequestSchema, body, { message: "Invalid debate request" });
      // Counted once the request is well-formed: the budget guards the model, and a
      // typo should not cost a debate.
      await enforceRateLimit(
        kv,
        "debate",
        `${user.id}:${remoteHostname(ctx.info)}`,
        RATE_LIMIT,
        RATE_WINDOW_MS,
        now(),
      );
      if (!llm) {
        console.error("POST /api/debate: no language model (set LLM_API_KEY, or use local mode)");
        throw new HttpError(500, "Failed to start debate");
      }
      const { config } = ctx.state.services;
      // The stream's slot first: a client over its stream cap starts no debate.
      const streamSlot = takeStreamSlot(config, ctx.info);
      let accepted;
      let slot;
      const jobs = jobRunner(kv);
      try {
        const capacity = await acquireDebateSlot(kv, {
          userId: user.id,
          max: config.maxConcurrentDebates,
          perUserPerDay: config.debatesPerUserPerDay,
          now,
        });
        if (!capacity.ok) throw debateCapacityError(capacity);
        slot = capacity.slot;
        accepted = await acceptDebate({ kv, llm, now }, user.id, request, jobs);
      } catch (err) {
        streamSlot.release();
        await slot?.release();
        throw err;
      }
      const events = createEventStream({ onEnd: streamSlot.release });
      const local: DebateLocal = {
        accepted,
        // This stream hears the run directly (every token, at once); the events are also
        // stored, so GET /api/debates/:id/events can resume it from any instance.
        listen: (event) => events.send(event.type, event.data),
        onEnd: async () => {
          events.close();
          await slot.release().catch((err) => console.error("Debate slot release failed", err));
        },
      };
      // The job is ours unless this instance is stopping; then a pass elsewhere runs it
      // and the client follows it through GET /api/debates/:id/events.
      if (!await jobs.adopt(DEBATE_JOB, accepted.record.id, local)) await local.onEnd!();
      return new Response(events.body, { status: 200, headers: sseHeadersFor(ctx.req) });
    } catch (err) {
      // A full or read-only store is a 503 with its sentence, not the fixed 500.
      throw failedWith(err, "POST /api/debate: could not start", "Failed to start debate");
    }
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/debate",
  tag: "Debates",
  summary: "Start a debate between your agent and an AI opponent (Server-Sent Events)",
  description:
    "The opponent persona is chosen from the topic. 5 rounds: your agent opens and the two alternate (10 messages of 100–200 characters), then a synthesis. The answer is a `text/event-stream`: each event is `event: <name>`, `data: <json>`, a blank line. Order: init; per turn start, chunk…, message; then synthesizing, synthesis, done. `error` may end the stream. The debate is saved (also when the client disconnects) and survives the server instance that runs it; a dropped stream resumes through `GET /api/debates/{id}/events`. 8 requests a minute per user and IP; bodies up to 24 KiB.",
  auth: "session",
  body: DebateRequestSchema,
  responses: {
    "200": {
      description: "The debate, streamed",
      events: DEBATE_EVENTS,
      headers: { "Cache-Control": "no-cache", "Connection": "keep-alive" },
      // Not sent when the request carries `Connection: close` (the server answers close).
    },
    "400": err(
      "topic or userProfile missing (`Missing topic or userProfile`), or invalid (with `issues`)",
      "Missing topic or userProfile",
    ),
    "401": unauthorizedSession,
    "413": tooLarge(24 * 1024),
    "429": {
      ...err(
        "More than 8 debates in a minute (per user and IP); `retryAfter` in seconds",
        "Rate limit exceeded",
      ),
      example: { error: "Rate limit exceeded", retryAfter: 42 },
      headers: { ...sessionRateHeaders, ...retryAfter },
    },
    "500": err("The debate could not start", "Failed to start debate"),
    "503": {
      ...streamsFull,
      description:
        "Every debate slot is taken (`Parley is busy: N debates are running…`, with `retryAfter`), or too many live streams are open (from your address or on this server)",
    },
  },
}];

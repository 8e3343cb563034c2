import { acceptDebate, startDebateInBackground } from "@/lib/debates/engine.ts";
import { DebateRequestSchema } from "@/lib/schemas/debate.ts";
import { createEventStream, SSE_HEADERS } from "@/lib/debates/sse.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { readJson, validate } from "@/lib/http/body.ts";
import { HttpError, jsonError } from "@/lib/http/errors.ts";
import { enforceRateLimit } from "@/lib/http/rate_limit.ts";
import { acquireDebateSlot } from "@/lib/debates/capacity.ts";
import { debateCapacityError } from "@/lib/http/outcome.ts";
import type { AppState } from "@/lib/state.ts";

/** SPEC.md: 24 KB request bodies, 8 debates per minute per user per IP. */
const BODY_LIMIT = 24 * 1024;
const RATE_LIMIT = 8;
const RATE_WINDOW_MS = 60_000;

function missingField(body: unknown): boolean {
  if (!body || typeof body !== "object" || Array.isArray(body)) return true;
  const { topic, userProfile } = body as Record<string, unknown>;
  const blank = (v: unknown) =>
    v === undefined || v === null || (typeof v === "string" && !v.trim());
  return blank(topic) || blank(userProfile);
}

/**
 * POST /api/debate: start a debate between the user's agent and an AI opponent and
 * stream it as Server-Sent Events. The debate runs on (and is saved) if the client
 * disconnects.
 */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const { kv, llm, now } = ctx.state.services;
    const user = ctx.state.user;
    if (!user) return jsonError(401, "Unauthorized");
    try {
      const body = await readJson(req, { limit: BODY_LIMIT });
      if (missingField(body)) return jsonError(400, "Missing topic or userProfile");
      const request = validate(DebateRequestSchema, body, "Invalid debate request");
      // Counted once the request is well-formed: the budget guards the model, and a
      // typo should not cost a debate.
      await enforceRateLimit(
        kv,
        "debate",
        `${user.id}:${ctx.remoteAddr.hostname}`,
        RATE_LIMIT,
        RATE_WINDOW_MS,
        now(),
      );
      if (!llm) {
        console.error("POST /api/debate: no language model (set LLM_API_KEY, or use local mode)");
        return jsonError(500, "Failed to start debate");
      }
      const { config } = ctx.state.services;
      const capacity = await acquireDebateSlot(kv, {
        userId: user.id,
        max: config.maxConcurrentDebates,
        perUserPerDay: config.debatesPerUserPerDay,
        now,
      });
      if (!capacity.ok) throw debateCapacityError(capacity);
      const { slot } = capacity;
      const deps = { kv, llm, now };
      let accepted;
      try {
        accepted = await acceptDebate(deps, user.id, request);
      } catch (err) {
        await slot.release();
        throw err;
      }
      const events = createEventStream();
      startDebateInBackground(
        deps,
        accepted,
        (event) => events.send(event.type, event.data),
        () => {
          events.close();
          slot.release().catch((err) => console.error("Debate slot release failed", err));
        },
      );
      return new Response(events.body, { status: 200, headers: SSE_HEADERS });
    } catch (err) {
      if (err instanceof HttpError) return err.toResponse();
      console.error("POST /api/debate: could not start", err);
      return jsonError(500, "Failed to start debate");
    }
  },
};

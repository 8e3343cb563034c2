/**
 * The HTTP edge of the stand-in model (lib/llm/standin/server.ts): OpenAI's error body, and
 * a completion outcome as JSON or as an SSE stream of `data: {chunk}` lines ending in
 * `data: [DONE]`.
 *
 * @module
 */
import type { StandInCompletion } from "../llm/standin/server.ts";
import { createEventStream } from "./sse.ts";

/** An error body in OpenAI's shape. */
export function openAiError(status: number, message: string): Response {
  return Response.json(
    { error: { message, type: "invalid_request_error", param: null, code: null } },
    { status },
  );
}

/**
 * A completion outcome as a response: `400` in OpenAI's shape for an invalid request,
 * the completion as JSON, or its chunks as server-sent events (stopped when the reader
 * goes away).
 */
export function completionResponse(outcome: StandInCompletion): Response {
  if (!outcome.ok) return openAiError(400, outcome.message);
  if (!outcome.stream) return Response.json(outcome.completion);
  const events = createEventStream();
  (async () => {
    try {
      for await (const chunk of outcome.chunks) {
        if (!events.open) return;
        events.write({ data: JSON.stringify(chunk) });
      }
      events.write({ data: "[DONE]" });
      events.close();
    } catch {
      // The reader went away mid-answer: nothing left to do.
    }
  })();
  return new Response(events.body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

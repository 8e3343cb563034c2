/**
 * The HTTP edge of the stand-in model (lib/llm/standin/server.ts): OpenAI's error body, and
 * a completion outcome as JSON or as an SSE stream of `data: {chunk}` lines ending in
 * `data: [DONE]`.
 *
 * @module
 */
import type { StandInCompletion } from "../llm/standin/server.ts";

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
  const encoder = new TextEncoder();
  const chunks = outcome.chunks;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for await (const chunk of chunks) {
          if (cancelled) return;
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
        }
        if (cancelled) return;
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      } catch {
        // The reader went away mid-answer: nothing left to do.
      }
    },
    cancel() {
      cancelled = true;
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

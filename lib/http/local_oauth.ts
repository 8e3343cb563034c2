/**
 * The HTTP edge of the local identity providers: their answers (lib/auth/local/protocol.ts)
 * as responses.
 *
 * @module
 */
import type { LocalAnswer } from "../auth/local/protocol.ts";

/** A local provider's answer as a response. */
export function localAnswerResponse(answer: LocalAnswer): Response {
  if (answer.encoding === "form") {
    return new Response(new URLSearchParams(answer.body).toString(), {
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  }
  return Response.json(answer.body, {
    status: answer.status,
    headers: { "cache-control": "no-store" },
  });
}

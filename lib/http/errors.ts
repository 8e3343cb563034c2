/**
 * How Parley answers an `HttpError` (lib/fresh/error.ts) as JSON: `{error, ...extra}` with
 * the error's status and headers. The app answers this way on `/api/*` and for statuses
 * a page has no view of; nothing else about a failure reaches a client.
 *
 * @module
 */
import type { HttpError } from "../fresh/error.ts";

/**
 * The JSON answer of `err`.
 *
 * @example
 * ```ts
 * import { HttpError } from "@/lib/fresh/error.ts";
 * import { errorResponse } from "@/lib/http/errors.ts";
 *
 * const res = errorResponse(new HttpError(429, "Rate limit exceeded", {
 *   extra: { retryAfter: 12 },
 *   headers: { "retry-after": "12" },
 * }));
 * await res.json(); // { error: "Rate limit exceeded", retryAfter: 12 }
 * ```
 */
export function errorResponse(err: HttpError): Response {
  return Response.json({ error: err.message, ...err.extra }, {
    status: err.status,
    headers: err.headers,
  });
}

/**
 * Errors that carry an HTTP answer. Handlers throw them; the app turns them into
 * `{error}` JSON on `/api/*` and an error page elsewhere. Nothing else reaches a client.
 *
 * While the routes move to Fresh 2's shape, this is lib/fresh's `HttpError` with Fresh 1's
 * constructor (`extra` and `headers` as arguments) and its `toResponse()`.
 *
 * @module
 */
import { HttpError as FreshHttpError } from "../fresh/error.ts";

/** An error with the status and JSON body to answer with. */
export class HttpError extends FreshHttpError {
  /**
   * @example
   * ```ts
   * throw new HttpError(404, "Question not found");
   * throw new HttpError(429, "Rate limit exceeded", { retryAfter: 12 }, { "retry-after": "12" });
   * ```
   */
  constructor(
    status: number,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(status, message, { extra, headers });
  }

  /** The JSON response for this error. */
  toResponse(): Response {
    return errorResponse(this);
  }
}

/**
 * The JSON answer of `err`: `{error, ...extra}` with its status and headers.
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
 * ```
 */
export function errorResponse(err: FreshHttpError): Response {
  return Response.json({ error: err.message, ...err.extra }, {
    status: err.status,
    headers: err.headers,
  });
}

/**
 * Errors that carry an HTTP answer. Handlers throw them; the app turns them into
 * `{error}` JSON on `/api/*` and an error page elsewhere. Nothing else reaches a client.
 *
 * @module
 */

/** An error with the status and JSON body to answer with. */
export class HttpError extends Error {
  /**
   * @example
   * ```ts
   * throw new HttpError(404, "Question not found");
   * throw new HttpError(429, "Rate limit exceeded", { retryAfter: 12 }, { "retry-after": "12" });
   * ```
   */
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }

  /** The JSON response for this error. */
  toResponse(): Response {
    return Response.json({ error: this.message, ...this.extra }, {
      status: this.status,
      headers: this.headers,
    });
  }
}

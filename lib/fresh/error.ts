/**
 * `HttpError`: the one error a handler or middleware throws to answer with an HTTP status,
 * shaped as Fresh 2's (`new HttpError(status, message?, options?)`). A thrown 404 renders
 * the `_404` page; the app decides how any other status is answered (lib/app.ts).
 *
 * @module
 */

/** What an {@link HttpError} carries besides its status and message. */
export interface HttpErrorOptions extends ErrorOptions {
  /**
   * Fields the JSON answer carries beside `error` (`retryAfter`, `issues`…). Parley's
   * addition: Fresh 2's `HttpError` takes only `cause`.
   */
  extra?: Record<string, unknown>;
  /**
   * Headers of the answer (`Retry-After`, `WWW-Authenticate`…). Parley's addition, as
   * {@link HttpErrorOptions.extra}.
   */
  headers?: Record<string, string>;
}

/** Status phrases in the sentence case Parley's `{error}` bodies use. */
const STATUS_PHRASES: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  410: "Gone",
  413: "Content too large",
  415: "Unsupported media type",
  422: "Unprocessable content",
  429: "Too many requests",
  500: "Internal server error",
  501: "Not implemented",
  502: "Bad gateway",
  503: "Service unavailable",
  504: "Gateway timeout",
};

/**
 * An error that answers with an HTTP status. Without a message, the message is the
 * status's phrase (`new HttpError(404).message` is `"Not found"`).
 *
 * @example
 * ```ts
 * import { HttpError } from "./error.ts";
 *
 * const missing = new HttpError(404);
 * missing.message; // "Not found"
 * const forbidden = new HttpError(403, "Admin access required");
 * const limited = new HttpError(429, "Rate limit exceeded", {
 *   extra: { retryAfter: 12 },
 *   headers: { "retry-after": "12" },
 * });
 * ```
 */
export class HttpError extends Error {
  /** The HTTP status to answer with. */
  readonly status: number;
  /** Fields of the JSON answer beside `error` (empty unless given). */
  readonly extra: Record<string, unknown>;
  /**
   * Headers of the answer (empty unless given). A middleware the error passes through may
   * add to them (the session middleware adds its renewed cookie).
   */
  readonly headers: Record<string, string>;

  /**
   * @param status The HTTP status.
   * @param message What went wrong; defaults to the status's phrase.
   * @param options `cause`, and Parley's `extra` body fields and `headers`.
   */
  constructor(status: number, message?: string, options?: HttpErrorOptions) {
    super(message ?? STATUS_PHRASES[status] ?? `HTTP ${status}`, options);
    this.name = "HttpError";
    this.status = status;
    this.extra = options?.extra ?? {};
    this.headers = options?.headers ?? {};
  }
}

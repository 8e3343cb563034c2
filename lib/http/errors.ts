/**
 * How Parley answers an `HttpError` (lib/fresh/error.ts) as JSON: `{error, ...extra}` with
 * the error's status and headers. The app answers this way on `/api/*` and for statuses
 * a page has no view of; nothing else about a failure reaches a client.
 *
 * @module
 */
import { HttpError } from "../fresh/error.ts";
import { storeFailureLog } from "../kv/failure_log.ts";
import { STORE_RETRY_AFTER_S, storeFailure } from "../kv/storage_errors.ts";
import { ContentionError } from "../kv/atomic.ts";
import { isLockError } from "../kv/retry.ts";

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

/**
 * A store that cannot take a write (its disk is full, it is read-only) or cannot be read
 * (damaged, a disk error) is not a bug of ours: the request answers 503 with the failure's
 * sentence and `Retry-After` (lib/kv/storage_errors.ts), never a 500, and the failure is
 * logged once, not once per request. Null for any other error.
 *
 * @example
 * ```ts
 * import { storageError } from "@/lib/http/errors.ts";
 *
 * const err = storageError(new TypeError("database or disk is full"));
 * err?.status; // 503
 * ```
 */
export function storageError(err: unknown): HttpError | null {
  const failure = storeFailure(err);
  if (!failure) return null;
  storeFailureLog.failed("A request to KV", err);
  return new HttpError(503, failure.sentence, {
    extra: { retryAfter: STORE_RETRY_AFTER_S },
    headers: { "retry-after": String(STORE_RETRY_AFTER_S) },
  });
}

/**
 * KV contention that outlasted its retry budget (a hot key, a long-held SQLite lock) is
 * transient: a retryable 503 with `Retry-After`, never a 500. Null for other errors.
 *
 * @example
 * ```ts
 * import { ContentionError } from "@/lib/kv/atomic.ts";
 * import { busyError } from "@/lib/http/errors.ts";
 *
 * busyError(new ContentionError(40))?.status; // 503
 * ```
 */
export function busyError(err: unknown): HttpError | null {
  if (!(err instanceof ContentionError) && !isLockError(err)) return null;
  console.error("KV contention outlasted the retry budget:", (err as Error).message);
  return new HttpError(503, "The service is busy, please retry shortly", {
    extra: { retryAfter: 1 },
    headers: {
      "retry-after": "1",
    },
  });
}

/**
 * What a route's catch-all passes on as it is rather than turning into its fixed 500: an
 * {@link HttpError} the code threw on purpose, contention past its retries
 * ({@link busyError}) or a storage failure ({@link storageError}). Null for anything else.
 *
 * @example
 * ```ts
 * import { HttpError } from "@/lib/fresh/error.ts";
 * import { expectedError } from "@/lib/http/errors.ts";
 *
 * try {
 *   // … the route's work …
 * } catch (err) {
 *   throw expectedError(err) ?? new HttpError(500, "Failed to start debate");
 * }
 * ```
 */
export function expectedError(err: unknown): HttpError | null {
  return err instanceof HttpError ? err : busyError(err) ?? storageError(err);
}

/**
 * A route's catch-all answer: the {@link expectedError} as it is, or else — logged under
 * `where` with its cause — the route's fixed 500 `message`.
 *
 * @example
 * ```ts
 * import { failedWith } from "@/lib/http/errors.ts";
 *
 * try {
 *   // … the route's work …
 * } catch (err) {
 *   throw failedWith(err, "POST /api/debate: could not start", "Failed to start debate");
 * }
 * ```
 */
export function failedWith(err: unknown, where: string, message: string): HttpError {
  const expected = expectedError(err);
  if (expected) return expected;
  console.error(where, err);
  return new HttpError(500, message);
}

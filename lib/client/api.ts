/**
 * Browser-side calls for islands: JSON requests and event streams, same-origin (the
 * session cookie and Origin travel with them), and a readable error for every failure —
 * the island shows it.
 *
 * @module
 */

/** The outcome of a call: data, or a message fit to show a person. */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; error: string; retryAfter?: number };

/**
 * Send JSON and read JSON.
 *
 * @example
 * ```ts
 * declare function showError(message: string): void;
 * declare const targetId: string;
 * declare const targetType: "question" | "message";
 * const r = await sendJson<{ favorited: boolean }>("POST", "/api/favorites", { targetId, targetType });
 * if (!r.ok) showError(r.error);
 * ```
 */
export async function sendJson<T>(
  method: "POST" | "PATCH" | "DELETE" | "GET",
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<ApiResult<T>> {
  const res = await request(method, path, "application/json", body, extraHeaders);
  if (!res) return { ok: false, status: 0, error: NETWORK_ERROR };
  const data = await jsonOf(res);
  if (res.ok) return { ok: true, status: res.status, data: data as T };
  return failureOf(res, data);
}

const NETWORK_ERROR = "Network error — check your connection and try again.";

/** One same-origin request; null when the network failed (or `signal` aborted it). */
async function request(
  method: string,
  path: string,
  accept: string,
  body: unknown,
  extraHeaders: Record<string, string>,
  signal?: AbortSignal,
): Promise<Response | null> {
  try {
    return await fetch(path, {
      method,
      credentials: "same-origin",
      signal,
      headers: body === undefined
        ? { accept, ...extraHeaders }
        : { accept, "content-type": "application/json", ...extraHeaders },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return null;
  }
}

/** The answer's JSON, or null when it is not JSON (a proxy error page, say). */
async function jsonOf(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

/** A failed answer in words, with the wait a 429 asked for. */
function failureOf(
  res: Response,
  data: unknown,
): { ok: false; status: number; error: string; retryAfter?: number } {
  const retryAfter = res.status === 429 ? retryAfterSeconds(res.headers, data) : undefined;
  return {
    ok: false,
    status: res.status,
    error: describeFailure(res.status, data, retryAfter),
    ...(retryAfter === undefined ? {} : { retryAfter }),
  };
}

/**
 * The outcome of opening an event stream: its body to read, or why not — the status (0:
 * the network failed or the request was aborted), a sentence fit to show, the wait a 429
 * asked for, and the answer's JSON (null when it had none) for a caller that words its
 * own refusals.
 */
export type StreamResult =
  | { ok: true; status: number; body: ReadableStream<Uint8Array> }
  | { ok: false; status: number; error: string; retryAfter?: number; data: unknown };

/**
 * Open a same-origin `text/event-stream` response (a POST's stream, which the browser's
 * EventSource cannot open, or a GET with `Last-Event-ID`); read it with
 * `readEventStream` (lib/debates/sse_reader.ts).
 *
 * @example
 * ```ts
 * import { readEventStream } from "@/lib/debates/sse_reader.ts";
 * const r = await openEventStream("GET", "/api/debates/debate_1/events", {
 *   headers: { "last-event-id": "12" },
 * });
 * if (r.ok) await readEventStream(r.body, (e) => console.log(e.type));
 * ```
 */
export async function openEventStream(
  method: "GET" | "POST",
  path: string,
  { body, headers = {}, signal }: {
    body?: unknown;
    headers?: Record<string, string>;
    signal?: AbortSignal;
  } = {},
): Promise<StreamResult> {
  const res = await request(method, path, "text/event-stream", body, headers, signal);
  if (!res) return { ok: false, status: 0, error: NETWORK_ERROR, data: null };
  if (res.ok && res.body) return { ok: true, status: res.status, body: res.body };
  const data = await jsonOf(res);
  return { ...failureOf(res, data), data };
}

/**
 * Seconds to wait after a 429: the `Retry-After` header (seconds or an HTTP date), else a
 * numeric `retryAfter` in the body; undefined when neither says.
 *
 * @example
 * ```ts
 * retryAfterSeconds(new Headers({ "retry-after": "42" }), null); // 42
 * ```
 */
export function retryAfterSeconds(headers: Headers, data: unknown): number | undefined {
  const header = headers.get("retry-after")?.trim();
  if (header) {
    if (/^\d+$/.test(header)) return Number(header);
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(1, Math.ceil((at - Date.now()) / 1000));
  }
  const body = (data as { retryAfter?: unknown } | null)?.retryAfter;
  return typeof body === "number" && Number.isFinite(body) && body >= 0
    ? Math.ceil(body)
    : undefined;
}

/**
 * How long to wait, in words, to the second: "42 seconds", "1 minute", "2 minutes 5
 * seconds" (a countdown's text; a server's refusal rounds to one unit with
 * `roundedWaitInWords` in lib/limits/posting.ts).
 *
 * @example
 * ```ts
 * preciseWaitInWords(65); // "1 minute 5 seconds"
 * ```
 */
export function preciseWaitInWords(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (s < 60) return plural(s, "second");
  const m = Math.floor(s / 60);
  const rest = s % 60;
  return rest ? `${plural(m, "minute")} ${plural(rest, "second")}` : plural(m, "minute");
}

/** A sentence for a failed call; a 429 says how long to wait when the server said. */
export function describeFailure(status: number, data: unknown, retryAfter?: number): string {
  const error = (data as { error?: unknown } | null)?.error;
  if (status === 401) return "Your session has ended — please sign in again.";
  // A posting limit says which limit and when to retry: show that sentence as it is.
  if (status === 429) {
    if (typeof error === "string" && error.startsWith("Too many")) return error;
    return retryAfter === undefined
      ? "Too many requests — wait a moment and try again."
      : `Too many requests — try again in ${preciseWaitInWords(retryAfter)}.`;
  }
  if (typeof error === "string" && error) return error;
  return status >= 500
    ? "Something went wrong on our side — please try again."
    : `Request failed (${status}).`;
}

/**
 * A fresh `Idempotency-Key` for one submission: `crypto.randomUUID()`, or random hex where
 * the page is not a secure context (plain http off localhost has no `randomUUID`).
 *
 * @example
 * ```ts
 * const key = newIdempotencyKey(); // "3f0c9a1e-…"
 * ```
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(
    crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

/**
 * The debate stream's wire format (`event: <type>\ndata: <json>\n\n`) and a stream that
 * a detached producer writes to: events written after the client left are dropped, and
 * a client leaving never throws into the producer.
 *
 * @module
 */

/** The response headers SPEC.md fixes for the debate stream. */
export const SSE_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache",
  "Connection": "keep-alive",
} as const;

/**
 * {@link SSE_HEADERS} for one request: `Connection: keep-alive` only when the connection
 * is kept. A client that sends `Connection: close` gets the server's own `connection:
 * close` alone, never both.
 *
 * @example
 * ```ts
 * sseHeadersFor(new Request("http://x/", { headers: { connection: "close" } }));
 * // { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" }
 * ```
 */
export function sseHeadersFor(req: Request): Record<string, string> {
  const tokens = (req.headers.get("connection") ?? "").toLowerCase().split(",");
  if (!tokens.some((t) => t.trim() === "close")) return { ...SSE_HEADERS };
  const { Connection: _kept, ...rest } = SSE_HEADERS;
  return rest;
}

/**
 * One event in SSE framing. JSON never contains a raw newline, so `data` is one line.
 *
 * @example
 * ```ts
 * formatSse("start", { role: "user", name: "Ada" });
 * // 'event: start\ndata: {"role":"user","name":"Ada"}\n\n'
 * ```
 */
export function formatSse(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A writable event stream for one response. */
export interface EventStream {
  /** The response body. */
  readonly body: ReadableStream<Uint8Array>;
  /** True until the client left or the stream was closed. */
  readonly open: boolean;
  /** Write one event (dropped when closed). */
  send(type: string, data: unknown): void;
  /** End the stream (idempotent). */
  close(): void;
}

/**
 * Create an event stream.
 *
 * @example
 * ```ts
 * const events = createEventStream();
 * events.send("init", { id: "debate_1700000000000_k3j9x0qa2m" });
 * const res = new Response(events.body, { headers: SSE_HEADERS });
 * ```
 */
export function createEventStream(): EventStream {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      // The client went away: stop writing, let the producer carry on.
      open = false;
    },
  });
  return {
    body,
    get open() {
      return open;
    },
    send(type, data) {
      if (!open) return;
      try {
        controller.enqueue(encoder.encode(formatSse(type, data)));
      } catch {
        open = false;
      }
    },
    close() {
      if (!open) return;
      open = false;
      try {
        controller.close();
      } catch {
        // Already closed or errored by the consumer side.
      }
    },
  };
}

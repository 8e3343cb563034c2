/**
 * Live streams (Server-Sent Events) that follow KV keys with `kv.watch`, and the one
 * place the server's shutdown reaches them: `main.ts` calls {@link closeLiveStreams}
 * before `server.shutdown()`, which ends every open stream of this process (debate
 * followers, notification counts, question pages), so the graceful stop never waits on
 * an endless response. Clients reconnect (to another instance) by the `retry:` advice.
 *
 * A watch sees every change of its keys, whichever instance wrote it (KV is the bus).
 *
 * @module
 */

let shutdown = new AbortController();

/**
 * The signal that aborts when the server shuts down (for streams opened now).
 *
 * @example
 * ```ts
 * shutdownSignal().addEventListener("abort", () => console.log("closing"));
 * ```
 */
export function shutdownSignal(): AbortSignal {
  return shutdown.signal;
}

/**
 * End every live stream of this process (call before the server shuts down). Streams
 * opened later are unaffected.
 *
 * @example
 * ```ts
 * closeLiveStreams();
 * ```
 */
export function closeLiveStreams(): void {
  shutdown.abort();
  shutdown = new AbortController();
}

/** Reconnect advice sent first on every live stream (ms). */
export const LIVE_RETRY_MS = 3000;
/** A comment line this often keeps proxies from closing an idle stream (ms). */
const KEEPALIVE_MS = 25_000;

/** Options of {@link watchStream}. */
export interface WatchStreamOptions<T> {
  /** The keys to follow. */
  keys: Deno.KvKey[];
  /** The event to send for the current values: `[event, data]`, or null to send nothing. */
  render: (
    entries: Deno.KvEntryMaybe<unknown>[],
  ) => Promise<[string, T] | null> | [string, T] | null;
  /** Called once when the stream ends (the client left, shutdown, or `close`). */
  onClose?: () => void;
}

/** A live stream: its body, and a way to end it from the server side. */
export interface LiveStream {
  body: ReadableStream<Uint8Array>;
  close(): void;
}

/**
 * An SSE body: `retry:`, then the event for the keys' values at once and on every change
 * (`kv.watch`), until the client leaves, the server shuts down or `close()` is called.
 * An unchanged rendering is not sent twice.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const s = watchStream(kv, {
 *   keys: [["notification_unread", "u_1"]],
 *   render: () => ["unread", { unread: 0 }],
 * });
 * new Response(s.body, { headers: { "content-type": "text/event-stream" } });
 * ```
 */
export function watchStream<T>(kv: Deno.Kv, opts: WatchStreamOptions<T>): LiveStream {
  const encoder = new TextEncoder();
  const stop = new AbortController();
  const onShutdown = () => stop.abort();
  const signal = shutdownSignal();
  let reader: ReadableStreamDefaultReader<Deno.KvEntryMaybe<unknown>[]> | null = null;
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    signal.removeEventListener("abort", onShutdown);
    reader?.cancel().catch(() => {});
    opts.onClose?.();
  };
  stop.signal.addEventListener("abort", () => reader?.cancel().catch(() => {}));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      signal.addEventListener("abort", onShutdown);
      const write = (text: string) => {
        if (stop.signal.aborted) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop.abort();
        }
      };
      const keepalive = setInterval(() => write(": keepalive\n\n"), KEEPALIVE_MS);
      let last = "";
      try {
        write(`retry: ${LIVE_RETRY_MS}\n\n`);
        reader = kv.watch(opts.keys).getReader();
        while (!stop.signal.aborted) {
          const next = await reader.read();
          if (next.done) break;
          const ev = await opts.render(next.value);
          if (!ev) continue;
          const text = `event: ${ev[0]}\ndata: ${JSON.stringify(ev[1])}\n\n`;
          if (text === last) continue;
          last = text;
          write(text);
        }
      } catch (err) {
        if (!stop.signal.aborted) console.error("live stream failed", err);
      } finally {
        clearInterval(keepalive);
        finish();
        try {
          controller.close();
        } catch {
          // The client already left.
        }
      }
    },
    cancel() {
      stop.abort();
      finish();
    },
  });
  return { body, close: () => stop.abort() };
}

/**
 * Server-Sent Events: the one place their wire format is written. The frame
 * ({@link formatSse}), the response headers ({@link sseHeadersFor}), the reconnect advice
 * every stream starts with ({@link SSE_RETRY_MS}), a body a producer writes to
 * ({@link createEventStream}), and the loop that follows KV keys with `kv.watch`
 * ({@link watchStream}), sending keep-alive comments, until the client leaves or the
 * server shuts down.
 *
 * Shutdown: `main.ts` calls {@link closeLiveStreams} before `server.shutdown()`, which ends
 * every stream of this process opened with {@link shutdownSignal} (debate followers,
 * notification counts, question pages), so the graceful stop never waits on an endless
 * response. Clients reconnect (to another instance) by the `retry:` advice. A watch sees
 * every change of its keys, whichever instance wrote it (KV is the bus).
 *
 * @module
 */

/** The response headers of every event stream. */
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
 * The reconnect delay every stream advises (its first frame, `retry:`), in ms. One value
 * for all: a resumable stream (debates, the expert panel) picks up where it dropped
 * within a second, and a live count reconnects as soon.
 */
export const SSE_RETRY_MS = 1000;

/** A comment this often keeps proxies from closing an idle live stream (ms). */
const KEEPALIVE_MS = 25_000;

/** One SSE message. Each field is optional; the frame writes them in this order. */
export interface SseMessage {
  /** A comment (`: …`), e.g. a keep-alive; clients ignore it. */
  comment?: string;
  /** Reconnect advice in ms (`retry:`), a non-negative integer. */
  retry?: number;
  /** The event id (`id:`; a resumable stream's sequence number). */
  id?: string | number;
  /** The event type (`event:`). */
  event?: string;
  /** The payload: each of its lines becomes its own `data:` line. */
  data?: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * One message in SSE framing, ending with the blank line that dispatches it. Multi-line
 * `data` and `comment` are split into one field line each; an `id` or `event` with a
 * line break, or a `retry` that is not a non-negative integer, throws a RangeError (it
 * would break the framing).
 *
 * @example
 * ```ts
 * formatSse({ event: "start", data: JSON.stringify({ role: "user" }) });
 * // 'event: start\ndata: {"role":"user"}\n\n'
 * formatSse({ id: 7, event: "note", data: "two\nlines" });
 * // 'id: 7\nevent: note\ndata: two\ndata: lines\n\n'
 * formatSse({ retry: SSE_RETRY_MS }); // 'retry: 1000\n\n'
 * formatSse({ comment: "keepalive" }); // ': keepalive\n\n'
 * ```
 */
export function formatSse(message: SseMessage): string {
  const { comment, retry, id, event, data } = message;
  let frame = "";
  if (comment !== undefined) {
    for (const line of comment.split(LINE_BREAK)) {
      frame += `: ${line}\n`;
    }
  }
  if (retry !== undefined) {
    if (!Number.isInteger(retry) || retry < 0) throw new RangeError(`Bad SSE retry: ${retry}`);
    frame += `retry: ${retry}\n`;
  }
  if (id !== undefined) frame += `id: ${singleLine("id", String(id))}\n`;
  if (event !== undefined) frame += `event: ${singleLine("event", event)}\n`;
  if (data !== undefined) { for (const line of data.split(LINE_BREAK)) frame += `data: ${line}\n`; }
  return frame + "\n";
}

function singleLine(field: string, value: string): string {
  if (LINE_BREAK.test(value)) throw new RangeError(`SSE ${field} has a line break`);
  return value;
}

/** A writable event stream for one response. */
export interface EventStream {
  /** The response body. */
  readonly body: ReadableStream<Uint8Array>;
  /** True until the client left or the stream was closed. */
  readonly open: boolean;
  /** Aborts once the stream ends: the client left, {@link EventStream.close}, or the signal given. */
  readonly ended: AbortSignal;
  /** Write one message (dropped when closed). */
  write(message: SseMessage): void;
  /** Write one event whose data is `data` as JSON (dropped when closed). */
  send(type: string, data: unknown): void;
  /** Write frames already encoded (one buffer shared by many streams; dropped when closed). */
  writeBytes(frame: Uint8Array): void;
  /** End the stream (idempotent). */
  close(): void;
}

const encoder = new TextEncoder();

/** Options of {@link createEventStream}. */
export interface EventStreamOptions {
  /** Ends the stream when it aborts (e.g. {@link shutdownSignal}). */
  signal?: AbortSignal;
  /**
   * Called exactly once when the stream ends, whatever ended it (the client left,
   * `close()`, the signal, a failed write): where a stream slot is given back.
   */
  onEnd?: () => void;
}

/**
 * Create an event stream a producer writes to: messages written after the client left
 * are dropped, and a client leaving never throws into the producer (it reads
 * {@link EventStream.open} or listens to {@link EventStream.ended}). `signal` ends the
 * stream when it aborts (e.g. {@link shutdownSignal}); `onEnd` runs once when it ends.
 *
 * @example
 * ```ts
 * const events = createEventStream();
 * events.send("init", { id: "debate_1700000000000_k3j9x0qa2m" });
 * const res = new Response(events.body, { headers: SSE_HEADERS });
 * ```
 */
export function createEventStream(options: EventStreamOptions = {}): EventStream {
  const { signal, onEnd } = options;
  const ended = new AbortController();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const end = (): boolean => {
    if (ended.signal.aborted) return false;
    signal?.removeEventListener("abort", close);
    ended.abort();
    onEnd?.();
    return true;
  };
  const close = () => {
    if (!end()) return;
    try {
      controller.close();
    } catch {
      // Already closed or errored by the consumer side.
    }
  };
  const writeBytes = (frame: Uint8Array) => {
    if (ended.signal.aborted) return;
    try {
      controller.enqueue(frame);
    } catch {
      end();
    }
  };
  const write = (message: SseMessage) => {
    if (!ended.signal.aborted) writeBytes(encoder.encode(formatSse(message)));
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      // The client went away: stop writing, let the producer carry on.
      end();
    },
  });
  if (signal?.aborted) close();
  else signal?.addEventListener("abort", close);
  return {
    body,
    get open() {
      return !ended.signal.aborted;
    },
    ended: ended.signal,
    write,
    writeBytes,
    send: (type, data) => write({ event: type, data: JSON.stringify(data) }),
    close,
  };
}

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

/** Options of {@link watchStream}. */
export interface WatchStreamOptions<T> {
  /** The keys to follow. */
  keys: Deno.KvKey[];
  /** The event to send for the current values: `[event, data]`, or null to send nothing. */
  render: (
    entries: Deno.KvEntryMaybe<unknown>[],
  ) => Promise<[string, T] | null> | [string, T] | null;
  /**
   * Streams of one store with the same `share` name follow one `kv.watch` and one
   * rendering (the first stream's `render`): give it only when the rendering depends on
   * the keys alone, e.g. `question:<id>`. Without it the stream watches on its own.
   */
  share?: string;
  /** Called once when the stream ends (the client left, shutdown, `close`, a failure). */
  onClose?: () => void;
  /** How often a keep-alive comment goes out (ms, default 25 s: under proxies' idle cutoffs). */
  keepAliveMs?: number;
}

/** A live stream: its body, and a way to end it from the server side. */
export interface LiveStream {
  body: ReadableStream<Uint8Array>;
  close(): void;
}

/** The open streams that share one keep-alive timer (one timer per period, not per stream). */
const keepAlives = new Map<
  number,
  { streams: Set<EventStream>; timer: ReturnType<typeof setInterval> }
>();

function keepAlive(stream: EventStream, ms: number): () => void {
  let g = keepAlives.get(ms);
  if (!g) {
    const streams = new Set<EventStream>();
    const timer = setInterval(() => {
      for (const s of streams) s.write({ comment: "keepalive" });
    }, ms);
    g = { streams, timer };
    keepAlives.set(ms, g);
  }
  const group = g;
  group.streams.add(stream);
  return () => {
    group.streams.delete(stream);
    if (group.streams.size === 0 && keepAlives.get(ms) === group) {
      clearInterval(group.timer);
      keepAlives.delete(ms);
    }
  };
}

/**
 * The streams following one key set: one `kv.watch`, one rendering per change, sent to
 * every member; the last frame sent is what a new member gets at once.
 */
interface WatchGroup {
  members: Set<EventStream>;
  /** The last event frame sent (already framed), or "" before the first rendering. */
  last: string;
  reader: ReadableStreamDefaultReader<Deno.KvEntryMaybe<unknown>[]> | null;
  stopped: boolean;
}

const groupsByKv = new WeakMap<Deno.Kv, Map<string, WatchGroup>>();

function startGroup<T>(
  kv: Deno.Kv,
  opts: WatchStreamOptions<T>,
  groups: Map<string, WatchGroup> | null,
  name: string,
): WatchGroup {
  const group: WatchGroup = { members: new Set(), last: "", reader: null, stopped: false };
  groups?.set(name, group);
  const follow = async () => {
    try {
      group.reader = kv.watch(opts.keys).getReader();
      while (!group.stopped) {
        const next = await group.reader.read();
        if (next.done) break;
        const ev = await opts.render(next.value);
        if (!ev || group.stopped) continue;
        const frame = formatSse({ event: ev[0], data: JSON.stringify(ev[1]) });
        if (frame === group.last) continue;
        group.last = frame;
        const bytes = encoder.encode(frame);
        for (const member of group.members) member.writeBytes(bytes);
      }
    } catch (err) {
      if (!group.stopped) console.error("live stream failed", err);
    } finally {
      stopGroup(group, groups, name);
      // Members end with their watch (clients reconnect by the `retry:` advice).
      for (const member of [...group.members]) member.close();
    }
  };
  follow();
  return group;
}

function stopGroup(group: WatchGroup, groups: Map<string, WatchGroup> | null, name: string) {
  if (group.stopped) return;
  group.stopped = true;
  if (groups?.get(name) === group) groups.delete(name);
  group.reader?.cancel().catch(() => {});
}

/**
 * An SSE body: `retry:`, then the event for the keys' values at once and on every change
 * (`kv.watch`), with a keep-alive comment (`: keepalive`) every 25 s, until the client
 * leaves, the server shuts down ({@link closeLiveStreams}) or `close()` is called. An
 * unchanged rendering is not sent twice.
 *
 * What an idle stream costs is kept small: streams with the same `share` name follow one
 * watch and one rendering, and all streams share one keep-alive timer.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const s = watchStream(kv, {
 *   keys: [["notification_unread", "u_1"]],
 *   render: () => ["unread", { unread: 0 }],
 *   share: "unread:u_1",
 * });
 * new Response(s.body, { headers: SSE_HEADERS });
 * ```
 */
export function watchStream<T>(kv: Deno.Kv, opts: WatchStreamOptions<T>): LiveStream {
  let groups: Map<string, WatchGroup> | null = null;
  const name = opts.share ?? "";
  if (opts.share !== undefined) {
    groups = groupsByKv.get(kv) ?? null;
    if (!groups) groupsByKv.set(kv, groups = new Map());
  }
  const group = groups?.get(name) ?? startGroup(kv, opts, groups, name);
  let stopKeepAlive = () => {};
  const stream = createEventStream({
    signal: shutdownSignal(),
    onEnd: () => {
      stopKeepAlive();
      group.members.delete(stream);
      if (group.members.size === 0) stopGroup(group, groups, name);
      opts.onClose?.();
    },
  });
  stream.write({ retry: SSE_RETRY_MS });
  if (stream.open) {
    if (group.last) stream.writeBytes(encoder.encode(group.last));
    group.members.add(stream);
    stopKeepAlive = keepAlive(stream, opts.keepAliveMs ?? KEEPALIVE_MS);
  }
  return { body: stream.body, close: stream.close };
}

/**
 * Reading a debate stream in tests: strict SSE framing (every frame exactly
 * `event: <type>\ndata: <json>\n\n`), whole or incrementally.
 */

/** One parsed event. */
export interface SseEvent {
  type: string;
  /** The `id:` of a resumable stream (GET /api/debates/:id/events). */
  id?: number;
  // deno-lint-ignore no-explicit-any
  data: any;
}

/**
 * Parse a complete stream body, throwing on any frame that is not exactly
 * `event: <type>\ndata: <json>` followed by a blank line.
 */
export function parseSse(text: string, opts: { resumable?: boolean } = {}): SseEvent[] {
  if (text === "") return [];
  if (!text.endsWith("\n\n")) throw new Error("stream does not end with a blank line");
  const out: SseEvent[] = [];
  for (const frame of text.slice(0, -2).split("\n\n")) {
    if (opts.resumable && /^retry: \d+$/.test(frame)) continue;
    const m = opts.resumable
      ? /^(?:id: (\d+)\n)?event: ([a-z_]+)\ndata: (.*)$/.exec(frame)
      : /^()event: ([a-z_]+)\ndata: (.*)$/.exec(frame);
    if (!m) throw new Error(`bad SSE frame: ${JSON.stringify(frame)}`);
    out.push({ type: m[2], data: JSON.parse(m[3]), ...(m[1] ? { id: Number(m[1]) } : {}) });
  }
  return out;
}

/**
 * Parse a resumable stream (`retry:` frames, `id: <n>` on events): strict framing too.
 *
 * @example
 * ```ts
 * parseResumable("retry: 1000\n\nid: 1\nevent: init\ndata: {}\n\n"); // [{type: "init", id: 1, data: {}}]
 * ```
 */
export function parseResumable(text: string): SseEvent[] {
  return parseSse(text, { resumable: true });
}

/** A stream read one event at a time. */
export interface SseReader {
  /** The next event (`retry:` frames skipped), or null when the stream ended. */
  next(): Promise<SseEvent | null>;
  /** Cancel the body (the client walks away). */
  close(): Promise<void>;
}

/**
 * Read a response's events one at a time, e.g. to see the first event of a live stream
 * before causing the change the next one must report.
 */
export function sseReader(res: Response, opts: { resumable?: boolean } = {}): SseReader {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    async next() {
      for (;;) {
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const [event] = parseSse(buffer.slice(0, end + 2), opts);
          buffer = buffer.slice(end + 2);
          if (event) return event; // else a `retry:` frame
        }
        const { done, value } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    close: () => reader.cancel().catch(() => {}),
  };
}

/**
 * Read events from a response until `stop` says so (or the stream ends), then cancel
 * the body — a client that walks away mid-debate.
 */
export async function readUntil(
  res: Response,
  stop: (event: SseEvent, all: SseEvent[]) => boolean,
  opts: { resumable?: boolean } = {},
): Promise<SseEvent[]> {
  const stream = sseReader(res, opts);
  const events: SseEvent[] = [];
  try {
    for (;;) {
      const event = await stream.next();
      if (!event) return events;
      events.push(event);
      if (stop(event, events)) return events;
    }
  } finally {
    await stream.close();
  }
}

/**
 * Reading a debate stream in tests: strict SSE framing (every frame exactly
 * `event: <type>\ndata: <json>\n\n`), whole or incrementally.
 */

/** One parsed event. */
export interface SseEvent {
  type: string;
  // deno-lint-ignore no-explicit-any
  data: any;
}

/**
 * Parse a complete stream body, throwing on any frame that is not exactly
 * `event: <type>\ndata: <json>` followed by a blank line.
 */
export function parseSse(text: string): SseEvent[] {
  if (text === "") return [];
  if (!text.endsWith("\n\n")) throw new Error("stream does not end with a blank line");
  return text.slice(0, -2).split("\n\n").map((frame) => {
    const m = /^event: ([a-z]+)\ndata: (.*)$/.exec(frame);
    if (!m) throw new Error(`bad SSE frame: ${JSON.stringify(frame)}`);
    return { type: m[1], data: JSON.parse(m[2]) };
  });
}

/**
 * Read events from a response until `stop` says so (or the stream ends), then cancel
 * the body — a client that walks away mid-debate.
 */
export async function readUntil(
  res: Response,
  stop: (event: SseEvent, all: SseEvent[]) => boolean,
): Promise<SseEvent[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const events: SseEvent[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return events;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const [event] = parseSse(buffer.slice(0, end + 2));
        buffer = buffer.slice(end + 2);
        events.push(event);
        if (stop(event, events)) return events;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

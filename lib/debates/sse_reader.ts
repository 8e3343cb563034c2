/**
 * Reading an SSE stream from a `fetch` response body (the debate stream is a POST, so
 * the browser's EventSource cannot be used). Browser-safe: no server imports.
 *
 * @module
 */

/** One event: its type and its parsed JSON data. */
export interface StreamEvent {
  type: string;
  data: unknown;
  /** The `id:` field, when the stream has one (GET /api/debates/:id/events). */
  id?: string;
}

/**
 * Split complete events off the front of `buffer`; returns them and the unfinished rest.
 * Follows the SSE rules that matter here: `event:` and `data:` fields (several data
 * lines join with a newline), comments ignored, CRLF accepted.
 *
 * @example
 * ```ts
 * takeEvents('event: start\ndata: {"role":"user"}\n\nevent: ch');
 * // { events: [{ type: "start", data: { role: "user" } }], rest: "event: ch" }
 * ```
 */
export function takeEvents(buffer: string): { events: StreamEvent[]; rest: string } {
  const normalized = buffer.replace(/\r\n?/g, "\n");
  const events: StreamEvent[] = [];
  let rest = normalized;
  let end: number;
  while ((end = rest.indexOf("\n\n")) !== -1) {
    const block = rest.slice(0, end);
    rest = rest.slice(end + 2);
    let type = "message";
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") type = value;
      else if (field === "id") id = value;
      else if (field === "data") data.push(value);
    }
    if (data.length === 0) continue;
    try {
      events.push({ type, data: JSON.parse(data.join("\n")), ...(id ? { id } : {}) });
    } catch {
      // Not JSON: not one of ours; skip it.
    }
  }
  return { events, rest };
}

/**
 * Read every event of a response body, calling `onEvent` as each arrives.
 *
 * @example
 * ```ts
 * declare const res: Response;
 * await readEventStream(res.body!, (e) => console.log(e.type));
 * ```
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: StreamEvent) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const { events, rest } = takeEvents(buffer);
    buffer = rest;
    for (const e of events) onEvent(e);
  }
  const { events } = takeEvents(buffer + decoder.decode() + "\n\n");
  for (const e of events) onEvent(e);
}

/** The browser-side SSE reader used by the live-debate island. */
import assert from "node:assert/strict";
import { readEventStream, takeEvents } from "@/lib/debates/sse_reader.ts";
import { formatSse } from "@/lib/http/sse.ts";

/** An event as the server frames it: JSON data. */
const frame = (type: string, data: unknown) =>
  formatSse({ event: type, data: JSON.stringify(data) });

Deno.test("takeEvents() returns complete events and keeps the unfinished rest", () => {
  const text = frame("start", { role: "user", name: "Ada" }) + 'event: chunk\ndata: {"con';
  const { events, rest } = takeEvents(text);
  assert.deepEqual(events, [{ type: "start", data: { role: "user", name: "Ada" } }]);
  assert.equal(rest, 'event: chunk\ndata: {"con');
});

Deno.test("takeEvents() accepts CRLF, comments and multi-line data and skips non-JSON", () => {
  const { events } = takeEvents(
    ': keep-alive\r\n\r\nevent: message\r\ndata: {"a":\r\ndata: 1}\r\n\r\nevent: x\ndata: not json\n\n',
  );
  assert.deepEqual(events, [{ type: "message", data: { a: 1 } }]);
});

Deno.test("readEventStream() delivers events split at any byte boundary, in order", async () => {
  const text = [
    frame("init", { id: "debate_1_x", topic: "Café ☕" }),
    frame("chunk", { role: "user", content: "naïve " }),
    frame("done", {}),
  ].join("");
  const bytes = new TextEncoder().encode(text);
  for (const size of [1, 3, 7, 64]) {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += size) c.enqueue(bytes.slice(i, i + size));
        c.close();
      },
    });
    const seen: unknown[] = [];
    await readEventStream(body, (e) => seen.push(e));
    assert.deepEqual(seen, [
      { type: "init", data: { id: "debate_1_x", topic: "Café ☕" } },
      { type: "chunk", data: { role: "user", content: "naïve " } },
      { type: "done", data: {} },
    ]);
  }
});

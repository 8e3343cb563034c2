/** Server-Sent Events: the frame, the headers, a producer's stream and the watch loop. */
import assert from "node:assert/strict";
import {
  closeLiveStreams,
  createEventStream,
  formatSse,
  SSE_RETRY_MS,
  sseHeadersFor,
  watchStream,
} from "@/lib/http/sse.ts";

/** Read a body's frames one at a time (each ends with a blank line). */
function frames(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    /** The next whole frame, or null when the stream ended. */
    async next(): Promise<string | null> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const frame = buffer.slice(0, end + 2);
          buffer = buffer.slice(end + 2);
          return frame;
        }
        const { done, value } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

Deno.test("formatSse() writes comment, retry, id, event and data in that order, one data line per line", () => {
  assert.equal(
    formatSse({ event: "start", data: '{"role":"user"}' }),
    'event: start\ndata: {"role":"user"}\n\n',
  );
  assert.equal(
    formatSse({ data: "a\nb\r\nc\rd", event: "note", id: 7, retry: 1500, comment: "hi" }),
    ": hi\nretry: 1500\nid: 7\nevent: note\ndata: a\ndata: b\ndata: c\ndata: d\n\n",
  );
  assert.equal(formatSse({ comment: "keepalive" }), ": keepalive\n\n");
  assert.equal(formatSse({ retry: SSE_RETRY_MS }), `retry: ${SSE_RETRY_MS}\n\n`);
  assert.equal(formatSse({ data: "" }), "data: \n\n");
});

Deno.test("formatSse() refuses what would break the framing: line breaks in id or event, a bad retry", () => {
  assert.throws(() => formatSse({ event: "a\nb" }), RangeError);
  assert.throws(() => formatSse({ id: "1\r2" }), RangeError);
  assert.throws(() => formatSse({ retry: -1 }), RangeError);
  assert.throws(() => formatSse({ retry: 1.5 }), RangeError);
});

Deno.test("sseHeadersFor() sends Connection: keep-alive unless the client asked to close", () => {
  assert.deepEqual(sseHeadersFor(new Request("http://x/")), {
    "Content-Type": "text/event-stream",
    "Cache-Control": "no-cache",
    "Connection": "keep-alive",
  });
  const closing = new Request("http://x/", { headers: { connection: "TE, Close" } });
  assert.deepEqual(sseHeadersFor(closing), {
    "Content-Type": "text/event-stream",
    "Cache-Control": "no-cache",
  });
});

Deno.test("createEventStream(): JSON events in order; after the client left writes are dropped, never thrown", async () => {
  const events = createEventStream();
  events.send("init", { id: "d1", text: "two\nlines" });
  events.write({ id: 2, event: "chunk", data: "x" });
  const read = frames(events.body);
  assert.equal(await read.next(), 'event: init\ndata: {"id":"d1","text":"two\\nlines"}\n\n');
  assert.equal(await read.next(), "id: 2\nevent: chunk\ndata: x\n\n");
  assert.equal(events.open, true);
  await read.cancel();
  assert.equal(events.open, false);
  assert.equal(events.ended.aborted, true);
  events.send("late", {});
  events.close();
  events.close();
});

Deno.test("createEventStream(): close() and the given signal end the body", async () => {
  const closed = createEventStream();
  closed.send("done", {});
  closed.close();
  const read = frames(closed.body);
  assert.equal(await read.next(), "event: done\ndata: {}\n\n");
  assert.equal(await read.next(), null);

  const stop = new AbortController();
  const stopped = createEventStream({ signal: stop.signal });
  stop.abort();
  assert.equal(stopped.open, false);
  assert.equal(await frames(stopped.body).next(), null);
  assert.equal(createEventStream({ signal: AbortSignal.abort() }).open, false);
});

/** Run `fn` with a fresh in-memory store, closed after. */
async function withKv(fn: (kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(kv);
  } finally {
    kv.close();
  }
}

Deno.test("watchStream(): retry first, the rendering at once and on change, never the same one twice", () =>
  withKv(async (kv) => {
    const key = ["count"];
    const stream = watchStream(kv, {
      keys: [key],
      render: ([e]) => ["count", { n: (e.value as number | null) ?? 0 }],
    });
    const read = frames(stream.body);
    assert.equal(await read.next(), `retry: ${SSE_RETRY_MS}\n\n`);
    assert.equal(await read.next(), 'event: count\ndata: {"n":0}\n\n');
    await kv.set(key, 0); // same rendering: not sent again
    await kv.set(key, 2);
    assert.equal(await read.next(), 'event: count\ndata: {"n":2}\n\n');
    stream.close();
    assert.equal(await read.next(), null);
  }));

Deno.test("watchStream(): keep-alive comments while idle; ends on shutdown and calls onClose once", () =>
  withKv(async (kv) => {
    let closes = 0;
    const idle = { keys: [["idle"]], render: () => null, onClose: () => closes++ };
    const stream = watchStream(kv, { ...idle, keepAliveMs: 5 });
    const read = frames(stream.body);
    assert.equal(await read.next(), `retry: ${SSE_RETRY_MS}\n\n`);
    assert.equal(await read.next(), ": keepalive\n\n");
    closeLiveStreams();
    let frame;
    while ((frame = await read.next()) !== null) assert.equal(frame, ": keepalive\n\n");
    stream.close(); // after the end: nothing more
    assert.equal(closes, 1);
  }));

Deno.test("watchStream(): a client leaving ends the watch and calls onClose", () =>
  withKv(async (kv) => {
    let closes = 0;
    const read = frames(
      watchStream(kv, {
        keys: [["k"]],
        render: () => ["v", {}],
        onClose: () => closes++,
      }).body,
    );
    await read.next();
    await read.cancel();
    assert.equal(closes, 1);
  }));

Deno.test("createEventStream(): onEnd runs exactly once, whichever way the stream ends", async () => {
  let ends = 0;
  const closed = createEventStream({ onEnd: () => ends++ });
  closed.close();
  closed.close();
  assert.equal(ends, 1);

  ends = 0;
  const left = createEventStream({ onEnd: () => ends++ });
  await left.body.cancel();
  left.close();
  assert.equal(ends, 1);

  ends = 0;
  const stop = new AbortController();
  const stopped = createEventStream({ signal: stop.signal, onEnd: () => ends++ });
  stop.abort();
  stopped.close();
  assert.equal(ends, 1);
});

Deno.test("watchStream(): streams sharing a name follow one rendering; a late one gets the last event at once", () =>
  withKv(async (kv) => {
    const key = ["shared"];
    let renders = 0;
    const opts = {
      keys: [key],
      share: "shared",
      render: ([e]: Deno.KvEntryMaybe<unknown>[]) => {
        renders++;
        return ["n", { n: (e.value as number | null) ?? 0 }] as [string, { n: number }];
      },
    };
    const first = watchStream(kv, opts);
    const a = frames(first.body);
    assert.equal(await a.next(), `retry: ${SSE_RETRY_MS}\n\n`);
    assert.equal(await a.next(), 'event: n\ndata: {"n":0}\n\n');
    const second = watchStream(kv, opts);
    const b = frames(second.body);
    assert.equal(await b.next(), `retry: ${SSE_RETRY_MS}\n\n`);
    assert.equal(await b.next(), 'event: n\ndata: {"n":0}\n\n');
    await kv.set(key, 5);
    assert.equal(await a.next(), 'event: n\ndata: {"n":5}\n\n');
    assert.equal(await b.next(), 'event: n\ndata: {"n":5}\n\n');
    assert.equal(renders, 2, "one rendering per change, not one per stream");
    // One leaving does not end the other.
    await a.cancel();
    await kv.set(key, 6);
    assert.equal(await b.next(), 'event: n\ndata: {"n":6}\n\n');
    second.close();
    assert.equal(await b.next(), null);
  }));

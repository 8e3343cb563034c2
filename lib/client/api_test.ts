/**
 * Opening an event stream from the browser side: the body to read when the server
 * streams, else the status, a sentence to show, a 429's wait and the answer's JSON; a
 * network failure is status 0. Against a real server on loopback.
 */
import assert from "node:assert/strict";
import { readEventStream, type StreamEvent } from "../debates/sse_reader.ts";
import { openEventStream } from "./api.ts";

/** A loopback server: `/stream` streams two events, `/busy` answers 429, `/echo` its request. */
function serve() {
  const seen: { method: string; headers: Headers; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    seen.push({ method: req.method, headers: req.headers, body: await req.text() });
    if (path === "/stream") {
      return new Response('event: a\ndata: {"n":1}\n\nid: 2\nevent: b\ndata: {"n":2}\n\n', {
        headers: { "content-type": "text/event-stream" },
      });
    }
    if (path === "/busy") {
      return Response.json({ error: "Too many debates: wait." }, {
        status: 429,
        headers: { "retry-after": "40" },
      });
    }
    return new Response("not json", { status: 500 });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  return { url, seen, close: () => server.shutdown() };
}

Deno.test("openEventStream gives the stream's body to read, sending the POST's JSON and the caller's headers", async () => {
  const srv = serve();
  try {
    const r = await openEventStream("POST", `${srv.url}/stream`, {
      body: { topic: "tea" },
      headers: { "last-event-id": "7" },
    });
    assert.equal(r.ok, true);
    const events: StreamEvent[] = [];
    if (r.ok) await readEventStream(r.body, (e) => events.push(e));
    assert.deepEqual(events, [
      { type: "a", data: { n: 1 } },
      { type: "b", data: { n: 2 }, id: "2" },
    ]);
    const [req] = srv.seen;
    assert.equal(req.method, "POST");
    assert.equal(req.body, '{"topic":"tea"}');
    assert.equal(req.headers.get("content-type"), "application/json");
    assert.equal(req.headers.get("accept"), "text/event-stream");
    assert.equal(req.headers.get("last-event-id"), "7");
  } finally {
    await srv.close();
  }
});

Deno.test("openEventStream on a refusal: the status, the server's sentence, a 429's wait and the JSON", async () => {
  const srv = serve();
  try {
    const busy = await openEventStream("GET", `${srv.url}/busy`);
    assert.deepEqual(busy, {
      ok: false,
      status: 429,
      error: "Too many debates: wait.",
      retryAfter: 40,
      data: { error: "Too many debates: wait." },
    });
    assert.equal(srv.seen[0].headers.get("content-type"), null, "a GET sends no body type");
    const broken = await openEventStream("GET", `${srv.url}/broken`);
    assert.deepEqual(broken, {
      ok: false,
      status: 500,
      error: "Something went wrong on our side — please try again.",
      data: null,
    });
  } finally {
    await srv.close();
  }
});

Deno.test("openEventStream when the network fails or the request is aborted: status 0", async () => {
  const srv = serve();
  const closedUrl = srv.url;
  await srv.close();
  const r = await openEventStream("GET", `${closedUrl}/stream`);
  assert.equal(r.ok, false);
  assert.equal(r.status, 0);
  const aborted = new AbortController();
  aborted.abort();
  const a = await openEventStream("GET", `${closedUrl}/stream`, { signal: aborted.signal });
  assert.equal(a.status, 0);
});

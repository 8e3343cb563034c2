/**
 * The baseline server of bench/streams.ts: bare `Deno.serve` answering every request with
 * an endless SSE body (`retry:` and one event, then nothing), no caps, no KV. Listens on
 * 127.0.0.1 at `PORT`.
 */
const port = Number(Deno.env.get("PORT"));
const encoder = new TextEncoder();
const hello = encoder.encode('retry: 1000\n\nevent: changed\ndata: {"n":0}\n\n');

Deno.serve(
  { hostname: "127.0.0.1", port, onListen: () => console.log("ready") },
  () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(hello);
        },
      }),
      { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } },
    ),
);

import assert from "node:assert/strict";
import { compressResponse, loadZlib, pickEncoding, zlibLoaded } from "./compress.ts";

const big = "<p>engines and heat</p>".repeat(200);
const req = (init: RequestInit = {}) =>
  new Request("http://localhost/", { headers: { "accept-encoding": "br, gzip" }, ...init });

// First in the file: nothing has loaded node:zlib yet in this module's process.
Deno.test("a new instance's first compressible responses are gzipped without node:zlib, which loads after them", async () => {
  assert.equal(zlibLoaded(), false);
  const html = { "content-type": "text/html; charset=utf-8" };
  const first = await compressResponse(req(), new Response(big, { headers: html }));
  assert.equal(first.headers.get("content-encoding"), "gzip");
  assert.equal(first.headers.get("vary"), "Accept-Encoding");
  const unzipped = first.body!.pipeThrough(new DecompressionStream("gzip"));
  assert.equal(await new Response(unzipped).text(), big);
  // A client that takes br only gets the page as it is meanwhile.
  const brOnly = await compressResponse(
    req({ headers: { "accept-encoding": "br" } }),
    new Response(big, { headers: html }),
  );
  assert.equal(brOnly.headers.get("content-encoding"), null);
  assert.equal(await brOnly.text(), big);
  // The second one started the import (a server starts it once its first is sent); once
  // it is in, br as usual.
  await new Promise((r) => setTimeout(r, 0));
  await loadZlib();
  assert.equal(zlibLoaded(), true);
  const later = await compressResponse(req(), new Response(big, { headers: html }));
  assert.equal(later.headers.get("content-encoding"), "br");
});

Deno.test("pickEncoding() prefers br, honours q=0 and *", () => {
  assert.equal(pickEncoding("gzip, deflate, br"), "br");
  assert.equal(pickEncoding("gzip"), "gzip");
  assert.equal(pickEncoding("br;q=0, gzip;q=0.5"), "gzip");
  assert.equal(pickEncoding("*"), "br");
  assert.equal(pickEncoding("*, br;q=0"), "gzip");
  assert.equal(pickEncoding("identity"), null);
  assert.equal(pickEncoding(""), null);
});

Deno.test("compressResponse() leaves event streams, encoded bodies, no-transform and 204 alone", async () => {
  const cases: [string, Response][] = [
    ["sse", new Response(big, { headers: { "content-type": "text/event-stream" } })],
    [
      "encoded",
      new Response(big, { headers: { "content-type": "text/css", "content-encoding": "br" } }),
    ],
    [
      "no-transform",
      new Response(big, {
        headers: { "content-type": "text/html", "cache-control": "no-transform" },
      }),
    ],
    ["204", new Response(null, { status: 204 })],
    ["image", new Response(big, { headers: { "content-type": "image/png" } })],
  ];
  for (const [name, res] of cases) {
    const out = await compressResponse(req(), res);
    assert.equal(out, res, name);
  }
});

Deno.test("compressResponse() compresses text over 1 KiB only, and always says Vary", async () => {
  await loadZlib();
  const html = { "content-type": "text/html; charset=utf-8", vary: "Cookie" };
  const small = await compressResponse(req(), new Response("<p>hi</p>", { headers: html }));
  assert.equal(small.headers.get("content-encoding"), null);
  assert.equal(small.headers.get("vary"), "Cookie, Accept-Encoding");
  const out = await compressResponse(req(), new Response(big, { status: 404, headers: html }));
  assert.equal(out.status, 404);
  assert.equal(out.headers.get("content-encoding"), "br");
  assert.equal(out.headers.get("vary"), "Cookie, Accept-Encoding");
  const head = await compressResponse(
    req({ method: "HEAD" }),
    new Response(big, { headers: html }),
  );
  assert.equal(head.headers.get("content-encoding"), null);
});

Deno.test("pickEncoding(): a value seen before gets the same answer, also after more distinct values than it remembers", () => {
  const values = ["gzip, deflate, br", "gzip", "br;q=0, gzip", "identity", "*", "*;q=0"];
  const first = values.map(pickEncoding);
  assert.deepEqual(first, ["br", "gzip", "gzip", null, "br", null]);
  // Many distinct values from clients (each parsed once, the memory bounded).
  for (let i = 0; i < 500; i++) assert.equal(pickEncoding(`gzip;q=0.${i % 9 + 1}, x-${i}`), "gzip");
  assert.deepEqual(values.map(pickEncoding), first);
});

Deno.test("a small answer of unknown length goes out as it is, with every header it had and Vary", async () => {
  const res = Response.json({ ok: true }, {
    status: 201,
    headers: { "x-frame-options": "DENY", "cache-control": "no-store" },
  });
  assert.equal(res.headers.get("content-length"), null);
  const out = await compressResponse(req(), res);
  assert.equal(out.status, 201);
  assert.equal(out.headers.get("content-encoding"), null);
  assert.equal(out.headers.get("vary"), "Accept-Encoding");
  assert.equal(out.headers.get("x-frame-options"), "DENY");
  assert.equal(out.headers.get("cache-control"), "no-store");
  assert.equal(out.headers.get("content-type"), "application/json");
  assert.deepEqual(await out.json(), { ok: true });
  // A big one of unknown length is compressed, its headers kept.
  const big = { items: Array.from({ length: 200 }, (_, i) => `item ${i}`) };
  const zipped = await compressResponse(
    req(),
    Response.json(big, { headers: { "x-frame-options": "DENY" } }),
  );
  assert.equal(zipped.headers.get("content-encoding"), "br");
  assert.equal(zipped.headers.get("x-frame-options"), "DENY");
  assert.equal(zipped.headers.get("vary"), "Accept-Encoding");
});

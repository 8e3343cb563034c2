import assert from "node:assert/strict";
import { HttpError } from "@/lib/fresh/error.ts";
import { parseBody, readTextLimited } from "@/lib/http/body.ts";
import { serveOnLoopback } from "@/tests/helpers/app.ts";
import { z } from "zod";

/** The status a read of `req` fails with, or its text. */
async function outcome(read: Promise<unknown>): Promise<unknown> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof HttpError) return err.status;
    throw err;
  }
}

Deno.test("readTextLimited() reads a body of declared length whole, and refuses one over the limit", async () => {
  // Over a real connection: the client declares the length, the server reads that much.
  const seen: unknown[] = [];
  const srv = serveOnLoopback(async (req) => {
    seen.push(await outcome(readTextLimited(req, 16)));
    return new Response(null, { status: 204 });
  });
  try {
    for (const body of ["héllo", "", "x".repeat(17)]) {
      const res = await fetch(`${srv.url}/`, { method: "POST", body });
      await res.body?.cancel();
    }
  } finally {
    await srv.close();
  }
  assert.deepEqual(seen, ["héllo", "", 413]);
});

Deno.test("readTextLimited() refuses a body longer than its declared length would allow", async () => {
  // Built in-process, a request can declare a length its body does not keep to.
  const lying = new Request("http://x/", {
    method: "POST",
    headers: { "content-length": "4" },
    body: "x".repeat(40),
  });
  assert.equal(await outcome(readTextLimited(lying, 16)), 413);
  // Without a length the stream is read up to the limit and cancelled past it.
  const streamed = new Request("http://x/", {
    method: "POST",
    body: new Blob(["x".repeat(40)]).stream(),
  });
  assert.equal(streamed.headers.get("content-length"), null);
  assert.equal(await outcome(readTextLimited(streamed, 16)), 413);
});

Deno.test("parseBody() answers 400 for JSON that is not, and the value for a declared-length body", async () => {
  const schema = z.object({ n: z.number() });
  const post = (body: string) =>
    new Request("http://x/", {
      method: "POST",
      headers: { "content-length": String(new TextEncoder().encode(body).length) },
      body,
    });
  assert.deepEqual(await outcome(parseBody(post('{"n":1}'), schema)), { n: 1 });
  assert.equal(await outcome(parseBody(post("{nope"), schema)), 400);
  assert.equal(await outcome(parseBody(post('{"n":"1"}'), schema)), 400);
});

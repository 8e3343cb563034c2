/**
 * `POST /api/debate` over a real port sends one `Connection` header: `keep-alive` (docs/interface.md#debate-stream)
 * when the connection is kept, only the server's `close` when the client asked to close.
 */
import assert from "node:assert/strict";
import { createTestApp, serveOnLoopback, signInAs, waitForJobs } from "../helpers/app.ts";
import { startFakeLlm } from "../helpers/fake_llm.ts";

/** Send a raw HTTP/1.1 request and return the response head's header lines. */
async function rawHead(port: number, head: string, body: string): Promise<string[]> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(head + body));
    const decoder = new TextDecoder();
    let text = "";
    const buf = new Uint8Array(16 * 1024);
    while (!text.includes("\r\n\r\n")) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += decoder.decode(buf.subarray(0, n), { stream: true });
    }
    return text.split("\r\n\r\n")[0].split("\r\n");
  } finally {
    conn.close();
  }
}

function connectionHeaders(lines: string[]): string[] {
  return lines.filter((l) => /^connection:/i.test(l)).map((l) =>
    l.slice(l.indexOf(":") + 1).trim().toLowerCase()
  );
}

Deno.test("POST /api/debate sends one Connection header: close when the client sent close, keep-alive otherwise", async () => {
  const fake = startFakeLlm();
  const t = await createTestApp({ env: fake.env });
  const srv = serveOnLoopback(t.app.fetch);
  try {
    const { cookie } = await signInAs(t, "Ada");
    const body = JSON.stringify({
      topic: "Should cities ban cars downtown?",
      userProfile: { name: "Ada", bio: "Engineer." },
    });
    const head = (connection: string | null) =>
      [
        "POST /api/debate HTTP/1.1",
        `Host: 127.0.0.1:${srv.port}`,
        `Origin: ${t.services.config.appOrigin}`,
        `Cookie: ${cookie}`,
        "Content-Type: application/json",
        `Content-Length: ${new TextEncoder().encode(body).length}`,
        ...(connection ? [`Connection: ${connection}`] : []),
        "",
        "",
      ].join("\r\n");

    const closed = await rawHead(srv.port, head("close"), body);
    assert.match(closed[0], /^HTTP\/1\.1 200/);
    assert.deepEqual(connectionHeaders(closed), ["close"], closed.join("\n"));
    assert.ok(closed.some((l) => /^content-type: text\/event-stream/i.test(l)));

    const kept = await rawHead(srv.port, head(null), body);
    assert.match(kept[0], /^HTTP\/1\.1 200/);
    assert.deepEqual(connectionHeaders(kept), ["keep-alive"], kept.join("\n"));

    const keptExplicit = await rawHead(srv.port, head("keep-alive"), body);
    assert.deepEqual(connectionHeaders(keptExplicit), ["keep-alive"], keptExplicit.join("\n"));
    await waitForJobs(20_000, "debate");
  } finally {
    await srv.close();
    await t.close();
    await fake.close();
  }
});

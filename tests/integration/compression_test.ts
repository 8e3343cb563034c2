/** Compression per Accept-Encoding (docs/decisions.md#scale-out). */
import assert from "node:assert/strict";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { readBuildInfo } from "@/lib/fresh/assets.ts";
import { createTestApp, ROOT } from "../helpers/app.ts";
import { ask, member } from "../helpers/community.ts";
import { loadZlib } from "@/lib/http/compress.ts";

const decode = (enc: string | null, bytes: Uint8Array) =>
  new TextDecoder().decode(
    enc === "br" ? brotliDecompressSync(bytes) : enc === "gzip" ? gunzipSync(bytes) : bytes,
  );

Deno.test("pages, the API docs and JSON over 1 KiB are sent br or gzip per Accept-Encoding, with Vary", async () => {
  const t = await createTestApp();
  // An instance past its first responses (until node:zlib loads they are gzip: compress.ts).
  await loadZlib();
  try {
    const ada = await member(t, "Ada");
    const id = await ask(t, ada, {
      title: "How do engines shed heat?",
      description: "x ".repeat(400),
    });
    for (const path of ["/", `/questions/${id}`, "/docs/api", "/api/openapi.json", "/skill.md"]) {
      const plain = await t.request(path);
      const text = await plain.text();
      assert.equal(plain.headers.get("content-encoding"), null, `${path}: nothing asked`);
      assert.match(plain.headers.get("vary") ?? "", /Accept-Encoding/i);
      for (const enc of ["br", "gzip"]) {
        const res = await t.request(path, { headers: { "accept-encoding": `${enc}, deflate` } });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-encoding"), enc, `${path} as ${enc}`);
        assert.match(res.headers.get("vary") ?? "", /Accept-Encoding/i);
        const bytes = new Uint8Array(await res.arrayBuffer());
        assert.ok(
          bytes.length < text.length / 2,
          `${path} ${enc}: ${bytes.length} < ${text.length}`,
        );
        assert.equal(decode(enc, bytes), text, `${path} ${enc} decodes to the same text`);
      }
    }
    // br preferred when both are acceptable; q=0 refuses.
    const both = await t.request("/docs/api", { headers: { "accept-encoding": "gzip, br" } });
    assert.equal(both.headers.get("content-encoding"), "br");
    const noBr = await t.request("/docs/api", { headers: { "accept-encoding": "br;q=0, gzip" } });
    assert.equal(noBr.headers.get("content-encoding"), "gzip");
  } finally {
    await t.close();
  }
});

Deno.test("small bodies, HEAD, 304-style empties and event streams are never compressed", async () => {
  const t = await createTestApp();
  try {
    const br = { "accept-encoding": "br, gzip" };
    const small = await t.request("/healthz", { headers: br });
    assert.equal(small.headers.get("content-encoding"), null, "under 1 KiB");
    const head = await t.request("/docs/api", { method: "HEAD", headers: br });
    assert.equal(head.headers.get("content-encoding"), null, "HEAD");
    const redirect = await t.request("/profile", { headers: br });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get("content-encoding"), null, "no body");
    const ada = await member(t, "Ada");
    const id = await ask(t, ada, { title: "Live events stay a stream" });
    const ctl = new AbortController();
    const sse = await t.request(`/api/questions/${id}/events`, { headers: br, signal: ctl.signal })
      .catch(() => null);
    if (sse && sse.status === 200) {
      assert.match(sse.headers.get("content-type") ?? "", /text\/event-stream/);
      assert.equal(sse.headers.get("content-encoding"), null, "SSE");
    }
    ctl.abort();
    await sse?.body?.cancel().catch(() => {});
  } finally {
    await t.close();
  }
});

Deno.test("built JS and CSS are served from their pre-compressed .br/.gz files", async () => {
  const t = await createTestApp();
  try {
    const build = await readBuildInfo(`${ROOT}/.build`);
    const dir = `${ROOT}/.build/static/${build.buildId}`;
    for (const file of ["s/styles.css", build.islands.AgentParticipate]) {
      const original = await Deno.readTextFile(`${dir}/${file}`);
      for (const [enc, ext] of [["br", "br"], ["gzip", "gz"]]) {
        const onDisk = await Deno.readFile(`${dir}/${file}.${ext}`);
        const res = await t.request(`/_parley/${build.buildId}/${file}`, {
          headers: { "accept-encoding": enc },
        });
        assert.equal(res.headers.get("content-encoding"), enc);
        assert.match(res.headers.get("vary") ?? "", /Accept-Encoding/i);
        assert.match(res.headers.get("cache-control") ?? "", /immutable/);
        const bytes = new Uint8Array(await res.arrayBuffer());
        assert.deepEqual(bytes, onDisk, `${file} as ${enc} is the pre-built file`);
        assert.equal(decode(enc, bytes), original);
      }
      const plain = await t.request(`/_parley/${build.buildId}/${file}`);
      assert.equal(plain.headers.get("content-encoding"), null);
      assert.equal(await plain.text(), original);
    }
  } finally {
    await t.close();
  }
});

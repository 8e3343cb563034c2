/**
 * Issue 11 part B through the HTTP surface: the Markdown preview endpoint and the pages of
 * the content lifecycle (revisions, question edit form, accepted mark, sort links, own-post
 * vote buttons, feed badges and counts).
 */
import assert from "node:assert/strict";
import { createTestApp, jsonWrite, type TestApp } from "../helpers/app.ts";
import { answer, ask, getAs, json, member, postAs } from "../helpers/community.ts";
import { renderMarkdown } from "@/lib/markdown.ts";
import { PREVIEW_MAX } from "@/lib/schemas/markdown.ts";
import { PREVIEW_RATE } from "@/routes/api/markdown/preview.ts";

async function withApp(fn: (t: TestApp) => Promise<void>) {
  const t = await createTestApp();
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

Deno.test("markdown preview: same sanitized HTML as the page renderer; session only; size and rate limited", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const text = "**bold** <script>alert(1)</script> [x](javascript:alert(1))\n\n```\ncode\n```";
    const ok = await json<{ html: string }>(postAs(t, ada, "/api/markdown/preview", { text }));
    assert.equal(ok.status, 200);
    assert.match(ok.body.html, /<strong>bold<\/strong>/);
    assert.doesNotMatch(ok.body.html, /<script|javascript:/);
    assert.match(ok.body.html, /<pre tabindex="0">/);
    assert.equal(ok.body.html, renderMarkdown(text, "preview-"));

    const anon = await postAs(t, null, "/api/markdown/preview", { text });
    assert.equal(anon.status, 401);
    await anon.body?.cancel();
    const long = await json(postAs(t, ada, "/api/markdown/preview", { text: "a".repeat(PREVIEW_MAX + 1) }));
    assert.equal(long.status, 400);
    const bad = await json(postAs(t, ada, "/api/markdown/preview", { text: 5 }));
    assert.equal(bad.status, 400);

    for (let i = 1; i < PREVIEW_RATE; i++) {
      const r = await postAs(t, ada, "/api/markdown/preview", { text: "x" });
      assert.equal(r.status, 200);
      await r.body?.cancel();
    }
    const over = await json<{ error: string }>(postAs(t, ada, "/api/markdown/preview", { text: "x" }));
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers.get("retry-after")) >= 1);
  });
});

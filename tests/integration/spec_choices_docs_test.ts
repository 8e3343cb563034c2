/** /docs/api documents the choices docs/interface.md leaves open. */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";

Deno.test("/docs/api has a 'Choices this API makes' section: failed debates, forced reply with no questions, oauth_error first", async () => {
  const t = await createTestApp();
  try {
    const res = await t.request("/docs/api");
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /id="spec-choices"[^>]*>Choices this API makes</);
    assert.doesNotMatch(
      html,
      /leaves open</,
      "the heading says what the API does, not what a spec omits",
    );
    const section = html.slice(html.indexOf('id="spec-choices"'), html.indexOf('id="mcp"'));
    assert.match(section, /<code>failed<\/code>/);
    assert.match(section, /forceAction: &quot;reply_existing&quot;|forceAction: "reply_existing"/);
    assert.match(section, /oauth_error<\/code>\s*before the state is checked/);
    assert.match(section, /reason=cancelled/);
  } finally {
    await t.close();
  }
});

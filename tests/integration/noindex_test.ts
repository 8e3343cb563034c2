/**
 * Pages search engines are asked not to index (docs/interface.md#discoverable-pages): search
 * results and pages past the end of a list carry `robots: noindex`; the lists themselves,
 * a tag's page and a question do not.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";
import { answer, ask, member } from "../helpers/community.ts";

const NOINDEX = /<meta name="robots" content="noindex"/;

Deno.test("noindex: search results and pages past the end; never the feed, a tag or a question", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q = await ask(t, ada, { title: "How do ferns spread?", tags: ["ferns"] });
    await answer(t, bob, q, "By spores, carried on the wind.");
    const html = async (path: string) => {
      const res = await t.request(path);
      assert.equal(res.status, 200, path);
      return await res.text();
    };
    for (
      const path of ["/?q=ferns", "/?q=nothing+matches", "/?page=999", `/questions/${q}?page=99`]
    ) {
      assert.match(await html(path), NOINDEX, path);
    }
    for (const path of ["/", "/?tag=ferns", `/questions/${q}`, "/?sort=votes"]) {
      assert.doesNotMatch(await html(path), NOINDEX, path);
    }
    // One canonical for a tag in any case.
    assert.match(await html("/?tag=FERNS"), /<link rel="canonical" href="[^"]*\/\?tag=ferns"/);
  } finally {
    await t.close();
  }
});

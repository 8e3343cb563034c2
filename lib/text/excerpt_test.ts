import assert from "node:assert/strict";
import { excerpt } from "./excerpt.ts";

Deno.test("excerpt() of a long text is the same at each length asked, first call or again", () => {
  const text = "## Heading\n\n" +
    "Some **bold** and `code` words, [a link](https://x.y). ".repeat(40);
  const full = excerpt(text, 5000);
  assert.ok(full.startsWith("Heading Some bold and code words, a link."));
  assert.ok(!/[*`#[\]]/.test(full), full.slice(0, 80));
  // Reduced once, then served from memory: every length is cut from the same plain text.
  for (const max of [5000, 160, 20, 5000]) {
    const cut = excerpt(text, max);
    assert.ok(cut.length <= max);
    assert.equal(cut, max >= full.length ? full : full.slice(0, max - 1).trimEnd() + "…");
  }
});

Deno.test("excerpt() of two long texts that differ only late keeps them apart", () => {
  const base = "word ".repeat(80);
  assert.equal(excerpt(base + "alpha", 5000).endsWith("alpha"), true);
  assert.equal(excerpt(base + "omega", 5000).endsWith("omega"), true);
});

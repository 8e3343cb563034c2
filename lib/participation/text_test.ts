/** Tidying model text for agent participation. */
import assert from "node:assert/strict";
import { clipAtWord, oneLine, tidyReply } from "@/lib/participation/text.ts";

Deno.test("clipAtWord() cuts at a word boundary with an ellipsis and leaves short text alone", () => {
  assert.equal(clipAtWord("short", 10), "short");
  assert.equal(clipAtWord("one two three four", 12), "one two…");
  const long = "word ".repeat(100).trim();
  const cut = clipAtWord(long, 50);
  assert.ok(cut.length <= 50, cut);
  assert.ok(cut.endsWith("word…"));
  assert.equal(clipAtWord("x".repeat(30), 10), `${"x".repeat(9)}…`);
});

Deno.test("tidyReply() drops a name label and wrapping quotes and keeps line breaks", () => {
  assert.equal(tidyReply('Ada: "Good point."', 500, "Ada"), "Good point.");
  assert.equal(tidyReply("**Ada**: fine", 500, "Ada"), "fine");
  assert.equal(tidyReply("Bob: stays", 500, "Ada"), "Bob: stays");
  assert.equal(tidyReply("First.\r\n\r\n- a list", 500), "First.\n\n- a list");
  assert.equal(tidyReply('"one" and "two"', 500), '"one" and "two"');
  assert.equal(tidyReply("   ", 500), "");
  assert.equal(oneLine("a\n\n b  c"), "a b c");
});

import assert from "node:assert/strict";
import {
  type DiffPart,
  isWhitespaceChange,
  MAX_DIFF_CELLS,
  tokenize,
  unchanged,
  wordDiff,
} from "./word_diff.ts";

const side = (parts: DiffPart[], kind: "del" | "ins") =>
  parts.filter((p) => p.kind === "same" || p.kind === kind).map((p) => p.text).join("");

Deno.test("wordDiff marks a replaced word as one deletion and one insertion", () => {
  assert.deepEqual(wordDiff("the quick fox", "the slow fox"), [
    { kind: "same", text: "the " },
    { kind: "del", text: "quick " },
    { kind: "ins", text: "slow " },
    { kind: "same", text: "fox" },
  ]);
});

Deno.test("wordDiff of equal texts is one unchanged run", () => {
  const d = wordDiff("a b c", "a b c");
  assert.deepEqual(d, [{ kind: "same", text: "a b c" }]);
  assert.ok(unchanged(d));
  assert.deepEqual(wordDiff("", ""), []);
});

Deno.test("wordDiff shows added and removed words and rebuilds both texts", () => {
  const before = "Deno KV is a key value store\nwith atomic ops";
  const after = "Deno KV is a fast key value database\nwith atomic ops and watch";
  const d = wordDiff(before, after);
  assert.equal(side(d, "del"), before);
  assert.equal(side(d, "ins"), after);
  assert.ok(d.some((p) => p.kind === "ins" && p.text.includes("fast")));
  assert.ok(d.some((p) => p.kind === "del" && p.text.includes("store")));
  assert.ok(!unchanged(d));
});

Deno.test("wordDiff from or to an empty text is a single insertion or deletion", () => {
  assert.deepEqual(wordDiff("", "new words"), [{ kind: "ins", text: "new words" }]);
  assert.deepEqual(wordDiff("old words", ""), [{ kind: "del", text: "old words" }]);
});

Deno.test("wordDiff of huge unrelated texts falls back to whole replacement", () => {
  const n = Math.ceil(Math.sqrt(MAX_DIFF_CELLS)) + 10;
  const a = Array.from({ length: n }, (_, i) => `a${i}`).join(" ");
  const b = Array.from({ length: n }, (_, i) => `b${i}`).join(" ");
  const d = wordDiff(a, b);
  assert.deepEqual(d.map((p) => p.kind), ["del", "ins"]);
  assert.equal(side(d, "ins"), b);
});

Deno.test("tokenize keeps whitespace, so tokens join back to the text", () => {
  const text = "  two  words\n\nthen more ";
  assert.equal(tokenize(text).join(""), text);
});

Deno.test("wordDiff shows a change of line breaks as whitespace, every word kept", () => {
  const before = "First line. Second line\nthird.";
  const after = "First line.\n\nSecond line third.";
  const d = wordDiff(before, after);
  assert.equal(side(d, "del"), before);
  assert.equal(side(d, "ins"), after);
  const changed = d.filter((p) => p.kind !== "same");
  assert.ok(changed.length > 0, "a whitespace change is still a change");
  assert.ok(changed.every(isWhitespaceChange), JSON.stringify(changed));
  assert.ok(!unchanged(d));
  assert.deepEqual(wordDiff("one two", "one\ntwo"), [
    { kind: "same", text: "one" },
    { kind: "del", text: " " },
    { kind: "ins", text: "\n" },
    { kind: "same", text: "two" },
  ]);
});

Deno.test("wordDiff keeps a word whose line break moved and marks only the words that changed", () => {
  const d = wordDiff("keep this\nword here", "keep this word\nthere");
  assert.equal(side(d, "del"), "keep this\nword here");
  assert.equal(side(d, "ins"), "keep this word\nthere");
  const words = d.filter((p) => !isWhitespaceChange(p) && p.kind !== "same");
  assert.deepEqual(words.map((p) => [p.kind, p.text.trim()]), [["del", "here"], ["ins", "there"]]);
});

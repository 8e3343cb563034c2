/**
 * Clipping streamed debate messages: at most 200 characters, cut at a word boundary,
 * and streamed chunks that never contain text the clip later removes.
 */
import assert from "node:assert/strict";
import { clipMessage, MessageClipper } from "@/lib/debates/clip.ts";

/** Feed `deltas`, collect streamed chunks, and return them with the final message. */

function run(deltas: string[], max = 200, speaker = "") {
  const c = new MessageClipper(max, speaker);
  const chunks: string[] = [];
  for (const d of deltas) {
    const ready = c.push(d);
    if (ready) chunks.push(ready);
    if (c.settled) break;
  }
  const { content, rest } = c.finish();
  if (rest) chunks.push(rest);
  return { chunks, content };
}

Deno.test("clipMessage() passes a short message through, whitespace collapsed and trimmed", () => {
  assert.equal(clipMessage("  Hello,\n\n  world  again.  ", 200), "Hello, world again.");
});

Deno.test("clipMessage() cuts a long message at the last word boundary within the limit", () => {
  const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
  const out = clipMessage(words, 200);
  assert.ok(out.length <= 200);
  assert.ok(words.startsWith(out));
  assert.equal(words[out.length], " ", "cut falls on a space");
  assert.ok(out.length > 190, "keeps as much as fits");
});

Deno.test("clipMessage() keeps exactly 200 characters when a space is right at the limit", () => {
  const text = "a".repeat(200) + " tail";
  assert.equal(clipMessage(text, 200), "a".repeat(200));
});

Deno.test("clipMessage() hard-cuts text without any space at the limit", () => {
  assert.equal(clipMessage("x".repeat(500), 200), "x".repeat(200));
});

Deno.test("MessageClipper streams chunks that always concatenate to a prefix of the final message", () => {
  const text = Array.from({ length: 60 }, (_, i) => `tok${i}`).join(" ");
  // Deltas of every size, including splits inside words and runs of spaces.
  for (const size of [1, 2, 3, 5, 7, 11, 50]) {
    const deltas: string[] = [];
    for (let i = 0; i < text.length; i += size) deltas.push(text.slice(i, i + size));
    const c = new MessageClipper(200);
    let streamed = "";
    for (const d of deltas) {
      streamed += c.push(d);
      assert.ok(streamed.length <= 200);
      if (c.settled) break;
    }
    const { content, rest } = c.finish();
    assert.ok(content.startsWith(streamed), `size ${size}: streamed text stays in the message`);
    assert.equal(streamed + rest, content);
    assert.equal(content, clipMessage(text, 200));
  }
});

Deno.test("MessageClipper releases a word once the space after it arrives", () => {
  const c = new MessageClipper(200);
  assert.equal(c.push("Hello"), "");
  assert.equal(c.push(" "), "Hello");
  assert.equal(c.push("world"), "");
  assert.equal(c.push(" again"), " world");
  assert.deepEqual(c.finish(), { content: "Hello world again", rest: " again" });
});

Deno.test("MessageClipper removes a leading speaker label, also when split across deltas", () => {
  assert.deepEqual(run(["Ve", "ra Quell", ":  Evidence", " first."], 200, "Vera Quell"), {
    chunks: ["Evidence", " first."],
    content: "Evidence first.",
  });
  // A text that only starts like the name keeps its words.
  assert.equal(run(["Verily, ", "no."], 200, "Vera").content, "Verily, no.");
});

Deno.test("MessageClipper settles once the message is fixed, so the rest need not be read", () => {
  const c = new MessageClipper(20);
  c.push("one two three four five six");
  assert.equal(c.settled, true);
  assert.equal(c.finish().content, "one two three four");
});

/**
 * Pieces of agent participation that need no server: tidying model text, ordering by
 * heat, and which message a reply answers.
 */
import assert from "node:assert/strict";
import type { MessageRecord } from "@/lib/community/messages.ts";
import { byHeat } from "@/lib/participation/decide.ts";
import { replyTarget } from "@/lib/participation/participate.ts";
import { clipAtWord, oneLine, tidyReply } from "@/lib/participation/text.ts";
import { withinHour } from "@/lib/avatar/answer.ts";

Deno.test("clipAtWord cuts at a word boundary with an ellipsis, and leaves short text alone", () => {
  assert.equal(clipAtWord("short", 10), "short");
  assert.equal(clipAtWord("one two three four", 12), "one two…");
  const long = "word ".repeat(100).trim();
  const cut = clipAtWord(long, 50);
  assert.ok(cut.length <= 50, cut);
  assert.ok(cut.endsWith("word…"));
  assert.equal(clipAtWord("x".repeat(30), 10), `${"x".repeat(9)}…`);
});

Deno.test("tidyReply drops a name label and wrapping quotes, keeps line breaks", () => {
  assert.equal(tidyReply('Ada: "Good point."', 500, "Ada"), "Good point.");
  assert.equal(tidyReply("**Ada**: fine", 500, "Ada"), "fine");
  assert.equal(tidyReply("Bob: stays", 500, "Ada"), "Bob: stays");
  assert.equal(tidyReply("First.\r\n\r\n- a list", 500), "First.\n\n- a list");
  assert.equal(tidyReply('"one" and "two"', 500), '"one" and "two"');
  assert.equal(tidyReply("   ", 500), "");
  assert.equal(oneLine("a\n\n b  c"), "a b c");
});

Deno.test("byHeat: upvotes plus messages, hottest first, newer first among equals", () => {
  const q = (id: string, upvotes: number, messageCount: number, createdAt: number) => ({
    id,
    title: id,
    description: "",
    tags: [],
    upvotes,
    downvotes: 0,
    messageCount,
    createdAt,
    author: { id: "u", name: "U", avatar: null },
    createdBy: "user" as const,
  });
  const ranked = byHeat([q("a", 1, 1, 1), q("b", 0, 3, 2), q("c", 2, 0, 3), q("d", 0, 0, 4)]);
  assert.deepEqual(ranked.map((c) => [c.question.id, c.heat]), [
    ["b", 3],
    ["c", 2],
    ["a", 2],
    ["d", 0],
  ]);
});

Deno.test("a reply answers the newest message by someone else; its own only when alone", () => {
  const m = (id: string, author: string): MessageRecord => ({
    id,
    questionId: "q",
    author: { id: author, name: author, avatar: null },
    authorType: "user",
    createdBy: "user",
    content: id,
    createdAt: 0,
  });
  assert.equal(replyTarget([m("1", "bob"), m("2", "ada")], "ada")?.id, "1");
  assert.equal(replyTarget([m("1", "bob"), m("2", "cat")], "ada")?.id, "2");
  assert.equal(replyTarget([m("1", "ada")], "ada")?.id, "1");
  assert.equal(replyTarget([], "ada"), null);
});

Deno.test("the avatar's hourly window keeps answers younger than an hour", () => {
  const now = 10_000_000;
  assert.deepEqual(withinHour({ times: [now - 3_600_000, now - 3_599_999, now] }, now), [
    now - 3_599_999,
    now,
  ]);
  assert.deepEqual(withinHour(null, now), []);
});

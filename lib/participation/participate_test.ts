/** Which message an agent's reply answers. */
import assert from "node:assert/strict";
import type { MessageRecord } from "@/lib/community/messages/model.ts";
import { replyTarget } from "@/lib/participation/participate.ts";

Deno.test("replyTarget() answers the newest message by someone else, its own only when alone", () => {
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

/** Which questions agent participation looks at first: ordering by heat. */
import assert from "node:assert/strict";
import { byHeat } from "@/lib/participation/decide.ts";

Deno.test("byHeat() ranks by upvotes plus messages, hottest first, newer first among equals", () => {
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
    answerCount: messageCount,
    acceptedMessageId: null,
    editedAt: null,
  });
  const ranked = byHeat([q("a", 1, 1, 1), q("b", 0, 3, 2), q("c", 2, 0, 3), q("d", 0, 0, 4)]);
  assert.deepEqual(ranked.map((c) => [c.question.id, c.heat]), [
    ["b", 3],
    ["c", 2],
    ["a", 2],
    ["d", 0],
  ]);
});

import assert from "node:assert/strict";
import { z } from "zod";
import {
  closedObject,
  misspeltFieldsMessage,
  nearestField,
  unknownFieldsMessage,
} from "./closed.ts";

Deno.test("nearestField() finds the field meant: case, another word for it, a misspelling", () => {
  const vote = ["voteType", "messageId"];
  assert.equal(nearestField("messageID", vote), "messageId");
  assert.equal(nearestField("votetype", vote), "voteType");
  assert.equal(nearestField("voteTyp", vote), "voteType");
  assert.equal(nearestField("answerId", vote), "messageId");
  assert.equal(nearestField("body", ["title", "description", "tags"]), "description");
  assert.equal(nearestField("body", ["content", "replyTo"]), "content");
  assert.equal(nearestField("contnet", ["content", "replyTo"]), "content");
  // Like nothing it takes: no guess.
  assert.equal(nearestField("author", ["content", "replyTo"]), undefined);
  assert.equal(nearestField("userId", vote), undefined);
  // An object's inherited names are no field's other word.
  assert.equal(nearestField("constructor", ["content"]), undefined);
  assert.equal(nearestField("__proto__", ["content"]), undefined);
  // Short names need the exact letters: "tag" is another word for "tags", "id" is nothing.
  assert.equal(nearestField("id", ["title", "description", "tags"]), undefined);
});

Deno.test("unknownFieldsMessage() names at most three and counts the rest", () => {
  assert.equal(
    unknownFieldsMessage(["messageID"], ["voteType", "messageId"]),
    'Unknown field "messageID" (did you mean "messageId"?): this request takes voteType and messageId.',
  );
  assert.equal(
    unknownFieldsMessage(["a", "b", "c", "d", "e"], ["content"]),
    'Unknown fields "a", "b", "c" and 2 more: this request takes content.',
  );
});

Deno.test("misspeltFieldsMessage() refuses look-alikes on closed bodies only, and keeps through clones", () => {
  const Reply = closedObject({ content: z.string(), replyTo: z.string().optional() })
    .meta({ id: "ClosedTestReply" });
  assert.equal(
    misspeltFieldsMessage(Reply, { contnet: "hi" }),
    'Unknown field "contnet" (did you mean "content"?): this request takes content and replyTo.',
  );
  assert.equal(misspeltFieldsMessage(Reply, { content: "hi", author: { id: "u" } }), null);
  assert.equal(misspeltFieldsMessage(Reply, "not an object"), null);
  // An ordinary object schema is not closed.
  const Open = z.object({ content: z.string(), other: z.string() });
  assert.equal(misspeltFieldsMessage(Open, { contnet: "hi" }), null);
});

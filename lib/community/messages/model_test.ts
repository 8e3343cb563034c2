/** Message ids that sort in creation order; the hidden counters each kind of message moves. */
import assert from "node:assert/strict";
import { hiddenCountersOf, orderedSuffix } from "@/lib/community/messages/model.ts";

Deno.test("orderedSuffix() keeps creation order within one millisecond", () => {
  const ids = Array.from({ length: 50 }, () => orderedSuffix(1_700_000_000_000));
  assert.deepEqual([...ids].sort(), ids);
  assert.ok(orderedSuffix(1_700_000_000_001) > ids.at(-1)!);
});

Deno.test("hiddenCountersOf(): every hidden message moves the thread's hidden counter, and its kind's", () => {
  const q = "q-1";
  assert.deepEqual(hiddenCountersOf({ questionId: q, authorType: "user" }), [
    ["hidden_message_counts", q],
    ["hidden_answer_counts", q],
  ]);
  assert.deepEqual(hiddenCountersOf({ questionId: q, authorType: "agent", replyTo: "m" }), [
    ["hidden_message_counts", q],
  ]);
  assert.deepEqual(hiddenCountersOf({ questionId: q, authorType: "ai" }), [
    ["hidden_message_counts", q],
    ["hidden_ai_answer_counts", q],
  ]);
  assert.deepEqual(hiddenCountersOf({ questionId: q, authorType: "ai", replyTo: "m" }), [
    ["hidden_message_counts", q],
    ["hidden_ai_reply_counts", q],
  ]);
});

/**
 * A roundtable written straight into the store, for tests of what shows, exports or erases
 * one without running a model.
 *
 * @module
 */
import assert from "node:assert/strict";
import { commit } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import type { RoundtableRecord } from "@/lib/roundtables/model.ts";
import {
  addInterjection,
  appendMessageOps,
  createRoundtableOps,
  newRoundtableId,
} from "@/lib/roundtables/store.ts";

/**
 * A roundtable of `userId` on `topic`, still in progress, with one statement, one host
 * interjection and its first event; returns its id.
 */
export async function seedRoundtable(
  kv: Deno.Kv,
  userId: string,
  topic: string,
  now = Date.now(),
): Promise<string> {
  const record: RoundtableRecord = {
    id: newRoundtableId(now),
    userId,
    topic,
    background: "",
    experts: [{ id: "ada", name: "Ada Lindqvist", title: "Software architect" }],
    rounds: 2,
    status: "in_progress",
    minutes: null,
    messageCount: 0,
    chosenBy: "host",
    standIn: true,
    createdAt: now,
    updatedAt: now,
  };
  const written = await commit(kv, (op) => {
    createRoundtableOps(op, record);
    appendMessageOps(op, record, {
      id: "m1",
      expertId: "ada",
      name: "Ada Lindqvist",
      content: `${topic}: a statement`,
      round: 0,
      timestamp: now,
    });
    op.set(keys.roundtableEvent(record.id, 1), { type: "init", data: { id: record.id, topic } });
  });
  assert.ok(written.ok);
  assert.ok((await addInterjection(kv, record.id, { text: `${topic}?` }, now)).ok);
  return record.id;
}

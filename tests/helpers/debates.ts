/**
 * Finished debates written straight into the store, for tests of what lists and indexes
 * them (the public /debates list, its backfill, the sitemap) without running a model.
 *
 * @module
 */
import assert from "node:assert/strict";
import { commit, invertTime } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import { completeDebate, createDebate, type DebateRecord } from "@/lib/debates/store.ts";

/** How {@link seedFinishedDebate} writes the debate. */
export interface SeedDebateOptions {
  /** Written as before the public index existed: the record and its owner's history only. */
  legacy?: boolean;
  /** Its createdAt and updatedAt (default: now). */
  at?: number;
  /**
   * Started and then completed through the store's own functions with a synthesis naming
   * this winner (otherwise it is written completed, without a synthesis).
   */
  winner?: "user" | "opponent" | "tie";
}

/**
 * Store a completed debate of `userId` on `topic` and return its id — through the store's
 * own `createDebate`, or (legacy) as older code wrote it, for the backfill to find.
 */
export async function seedFinishedDebate(
  kv: Deno.Kv,
  userId: string,
  topic: string,
  { legacy = false, at = Date.now(), winner }: SeedDebateOptions = {},
): Promise<string> {
  const record: DebateRecord = {
    id: `debate_${at}_${crypto.randomUUID().slice(0, 8)}`,
    topic,
    userId,
    userProfile: { id: userId, name: "Their agent", avatar: null, bio: "" },
    opponentProfile: { id: "persona-x", name: "Dr. Opponent", avatar: "", bio: "", title: "S" },
    status: winner ? "in_progress" : "completed",
    synthesis: null,
    messageCount: 0,
    standIn: false,
    createdAt: at,
    updatedAt: at,
  };
  if (legacy) {
    const written = await commit(kv, (op) =>
      op.set(keys.debate(record.id), record)
        .set(keys.debateByUser(userId, invertTime(at), record.id), record.id));
    assert.ok(written.ok);
  } else {
    assert.ok(await createDebate(kv, record));
  }
  if (winner) {
    await completeDebate(
      kv,
      record,
      {
        consensus: ["a"],
        disagreements: ["b"],
        winner,
        winnerReason: "r",
        conclusion: "c",
        recommendations: ["d"],
      },
      "model",
      at,
    );
  }
  return record.id;
}

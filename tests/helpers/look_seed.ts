/**
 * A small community for look tests and screenshots: a moderator with a two-word name, a
 * question with an answer and a flagged, restored reply, and a finished debate run on the
 * fake model (two turns each and the judge's synthesis).
 */
import assert from "node:assert/strict";
import { flagPost, moderate } from "@/lib/moderation/moderation.ts";
import { answer, ask, type Member, member } from "./community.ts";
import type { TestApp } from "./app.ts";

/** A question with an answer and a reply, a flag, and moderation log entries. */
export async function seedThread(t: TestApp, mod: Member): Promise<string> {
  const ada = await member(t, "Ada Lovelace");
  const qid = await ask(t, ada, {
    title: "How do I keep a long-running Deno KV migration resumable?",
    description: "I migrate a few million keys and the process may restart at any time.",
    tags: ["deno", "kv"],
  });
  const a1 = await answer(t, mod, qid, "Write a cursor after each batch and resume from it.");
  const r1 = await answer(t, ada, qid, "Thanks, and how large should a batch be?", a1);
  const flagged = await flagPost(t.kv, {
    userId: mod.id,
    targetType: "message",
    targetId: r1,
    reason: "off_topic",
    note: "Belongs in a new question",
  });
  assert.ok(flagged.ok);
  for (const action of ["hide", "restore"] as const) {
    const done = await moderate(t.kv, {
      moderator: { id: mod.id, name: mod.name },
      targetType: "message",
      targetId: r1,
      action,
    });
    assert.ok(done.ok);
  }
  return qid;
}

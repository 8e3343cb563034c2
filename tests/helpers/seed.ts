/**
 * Seed data for security tests: a user "A" who owns one of everything (question, answer,
 * private debate, agent key), written through the real domain modules.
 */
import { createDebate, type DebateRecord } from "@/lib/debates/store.ts";
import { saveSettings } from "@/lib/profile/settings.ts";
import type { TestApp } from "./app.ts";
import { agentKey, answer, ask, type Member, member } from "./community.ts";

/** What {@link seedOwner} created. */
export interface Owned {
  owner: Member;
  questionId: string;
  messageId: string;
  debateId: string;
  agentKey: string;
  agentKeyId: string;
}

/**
 * Save a finished-looking debate for `userId` straight into KV (no model needed).
 *
 * @example
 * ```ts
 * const id = await seedDebate(t, user.id, "Tabs or spaces?");
 * ```
 */
export async function seedDebate(t: TestApp, userId: string, topic: string): Promise<string> {
  const now = t.services.now();
  const record = {
    id: `debate_${now}_seed${crypto.randomUUID().slice(0, 8)}`,
    topic,
    userId,
    userProfile: { id: userId, name: "Me", avatar: null, bio: "" },
    opponentProfile: { id: "persona-x", name: "Dr. Opponent", avatar: "", bio: "", title: "S" },
    status: "in_progress",
    synthesis: null,
    messageCount: 0,
    standIn: false,
    createdAt: now,
    updatedAt: now,
  } as DebateRecord;
  await createDebate(t.kv, record);
  return record.id;
}

/**
 * A user who owns a question, an answer, a private debate, private activity and an
 * agent key.
 *
 * @example
 * ```ts
 * const a = await seedOwner(t, "Alice");
 * ```
 */
export async function seedOwner(t: TestApp, name: string): Promise<Owned> {
  const owner = await member(t, name);
  const questionId = await ask(t, owner, { title: `${name}'s question`, tags: ["owned"] });
  const messageId = await answer(t, owner, questionId, `${name}'s answer`);
  const debateId = await seedDebate(t, owner.id, `${name}'s private debate`);
  await saveSettings(t.kv, owner.id, {
    activityVisibility: "private",
    voteHistory: "private",
    debateArchive: "private",
  });
  const key = await agentKey(t, owner, `${name}'s agent`);
  const list = await t.request("/api/profile/agent-keys", { headers: { cookie: owner.cookie } });
  const { keys } = await list.json() as { keys: { id: string }[] };
  return { owner, questionId, messageId, debateId, agentKey: key, agentKeyId: keys[0].id };
}

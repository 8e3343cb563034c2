import assert from "node:assert/strict";
import { deleteMessage } from "../community/message_lifecycle.ts";
import { getMessage } from "../community/messages/read.ts";
import { addMessage } from "../community/messages/write.ts";
import type { Author } from "../community/questions/model.ts";
import { getQuestion } from "../community/questions/read.ts";
import { createQuestion } from "../community/questions/write.ts";
import type { TargetType } from "../community/targets.ts";
import { keys } from "../kv/keys.ts";
import { DEFAULT_LIMITS } from "../limits/posting.ts";
import {
  flagPost,
  type FlagReason,
  hiddenAmong,
  LOG_PAGE,
  type ModAction,
  moderate,
  modLog,
  modQueue,
  type ModQueueEntry,
} from "./moderation.ts";
import { FLAG_WEIGHT_TO_HIDE } from "./standing.ts";

const ada: Author = { id: "u-ada", name: "Ada", avatar: null };
const moderator = { id: "u-mod", name: "Mo" };

/** A question by Ada with one answer by Ada. */
async function posts(kv: Deno.Kv, title = "Is this post spam?") {
  const q = await createQuestion(kv, {
    title,
    description: "Buy now",
    author: ada,
    createdBy: "user",
  });
  const m = await addMessage(kv, {
    questionId: q.id,
    author: ada,
    content: "Cheap pills here",
    createdBy: "user",
  });
  assert.ok(m.ok);
  return { questionId: q.id, messageId: m.message.id };
}

function flag(
  kv: Deno.Kv,
  userId: string,
  targetType: TargetType,
  targetId: string,
  reason: FlagReason = "spam",
  note: string | null = null,
  opts: Parameters<typeof flagPost>[2] = {},
) {
  return flagPost(kv, { userId, targetType, targetId, reason, note }, opts);
}

function act(
  kv: Deno.Kv,
  targetType: TargetType,
  targetId: string,
  action: ModAction,
  now?: number,
) {
  return moderate(kv, { moderator, targetType, targetId, action }, { now });
}

async function queueEntry(kv: Deno.Kv, targetType: TargetType, targetId: string) {
  return (await kv.get<ModQueueEntry>(keys.modQueue(targetType, targetId))).value;
}

Deno.test("flagPost(): once per user and post, never one's own post, never a missing or deleted one", async () => {
  using kv = await Deno.openKv(":memory:");
  const { questionId, messageId } = await posts(kv);
  assert.deepEqual(await flag(kv, "u-1", "message", messageId, "spam", "an ad"), {
    ok: true,
    hidden: false,
  });
  assert.deepEqual(await flag(kv, "u-1", "message", messageId, "offensive"), {
    ok: false,
    reason: "already_flagged",
  });
  assert.deepEqual(await flag(kv, ada.id, "message", messageId), { ok: false, reason: "own_post" });
  assert.deepEqual(await flag(kv, ada.id, "question", questionId), {
    ok: false,
    reason: "own_post",
  });
  assert.deepEqual(await flag(kv, "u-1", "message", "msg-missing"), {
    ok: false,
    reason: "not_found",
  });
  assert.deepEqual(await flag(kv, "u-1", "question", messageId), {
    ok: false,
    reason: "not_found",
  });
  // The same user may flag another post.
  assert.deepEqual(await flag(kv, "u-1", "question", questionId), { ok: true, hidden: false });
  const entry = await queueEntry(kv, "message", messageId);
  assert.ok(entry);
  assert.equal(entry.flags, 1, "the refused flags did not count");
  assert.deepEqual(entry.reasons, { spam: 1 });
  assert.deepEqual(entry.notes.map((n) => n.note), ["an ad"]);
  assert.equal(entry.questionId, questionId);
  assert.equal(entry.authorId, ada.id);
  // A deleted post takes no more flags.
  assert.ok((await act(kv, "message", messageId, "delete")).ok);
  assert.deepEqual(await flag(kv, "u-2", "message", messageId), { ok: false, reason: "not_found" });
});

Deno.test("flagPost(): the third distinct flag hides the post in its own op; hidden posts read as gone", async () => {
  using kv = await Deno.openKv(":memory:");
  const { questionId, messageId } = await posts(kv);
  assert.deepEqual(await flag(kv, "u-1", "message", messageId, "spam", "first"), {
    ok: true,
    hidden: false,
  });
  assert.deepEqual(await flag(kv, "u-2", "message", messageId, "off_topic"), {
    ok: true,
    hidden: false,
  });
  assert.ok(await getMessage(kv, messageId), "two flags do not hide");
  assert.deepEqual(await flag(kv, "u-3", "message", messageId, "spam", "third"), {
    ok: true,
    hidden: true,
  });
  assert.equal(await getMessage(kv, messageId), null, "hidden reads as gone");
  const raw = (await kv.get<{ hiddenAt?: number }>(keys.message(messageId))).value;
  assert.equal(typeof raw?.hiddenAt, "number");
  assert.deepEqual((await kv.get(keys.hiddenPost("message", messageId))).value, {
    at: raw!.hiddenAt,
    by: "flags",
  });
  assert.deepEqual(
    await hiddenAmong(kv, [
      { type: "message", id: messageId },
      { type: "question", id: questionId },
    ]),
    new Set([messageId]),
  );
  // A fourth flagger cannot see the hidden post: to them it does not exist (no confirmation).
  assert.deepEqual(await flag(kv, "u-4", "message", messageId, "offensive"), {
    ok: false,
    reason: "not_found",
  });
  const entry = await queueEntry(kv, "message", messageId);
  assert.deepEqual(
    [entry?.flags, entry?.reasons, entry?.hidden],
    [3, { spam: 2, off_topic: 1 }, true],
  );
  assert.deepEqual(entry?.notes.map((n) => n.note), ["third", "first"], "newest first");
  // The question is untouched.
  assert.ok(await getQuestion(kv, questionId));
});

Deno.test("flagPost(): concurrent flags from different users all count, exactly once each", async () => {
  using kv = await Deno.openKv(":memory:");
  const { questionId } = await posts(kv);
  const users = Array.from({ length: 8 }, (_, i) => `u-${i}`);
  const results = await Promise.all(users.map((u) => flag(kv, u, "question", questionId)));
  // Flags count until the one that hides it; later ones find nothing (the post is hidden
  // from them), and none is lost or counted twice.
  const accepted = results.filter((r) => r.ok);
  assert.equal(accepted.length, FLAG_WEIGHT_TO_HIDE);
  assert.equal(accepted.filter((r) => r.ok && r.hidden).length, 1, "one flag hid it");
  assert.ok(results.every((r) => r.ok || r.reason === "not_found"));
  const entry = await queueEntry(kv, "question", questionId);
  assert.deepEqual(
    [entry?.flags, entry?.reasons, entry?.hidden],
    [accepted.length, { spam: accepted.length }, true],
  );
  const flags = await Array.fromAsync(
    kv.list({ prefix: keys.flag("question", questionId, "").slice(0, 3) }),
  );
  assert.equal(flags.length, accepted.length);
  assert.equal(await getQuestion(kv, questionId), null);
  assert.ok(await getQuestion(kv, questionId, { userId: ada.id }), "its author still sees it");
});

Deno.test("flagPost(): the daily flags budget refuses the flag over it, which counts nowhere", async () => {
  using kv = await Deno.openKv(":memory:");
  const limits = { ...DEFAULT_LIMITS, flagsPerDay: 2 };
  const targets = [await posts(kv, "One"), await posts(kv, "Two"), await posts(kv, "Three")];
  const now = 1_900_000_000_000;
  for (const [i, t] of targets.slice(0, 2).entries()) {
    assert.ok(
      (await flag(kv, "u-1", "question", t.questionId, "spam", null, { limits, now: now + i })).ok,
    );
  }
  const refused = await flag(kv, "u-1", "question", targets[2].questionId, "spam", null, {
    limits,
    now: now + 2,
  });
  assert.ok(!refused.ok && refused.reason === "rate_limited", JSON.stringify(refused));
  assert.equal(refused.kind, "flags");
  assert.equal(refused.limit, 2);
  assert.equal(await queueEntry(kv, "question", targets[2].questionId), null);
  assert.equal((await kv.get(keys.flag("question", targets[2].questionId, "u-1"))).value, null);
  // A day later the budget is back.
  const later = await flag(kv, "u-1", "question", targets[2].questionId, "spam", null, {
    limits,
    now: now + 86_400_000,
  });
  assert.deepEqual(later, { ok: true, hidden: false });
});

Deno.test("moderate(): hide, restore, dismiss and delete each change what readers see, take the post off the queue and are logged newest first", async () => {
  using kv = await Deno.openKv(":memory:");
  const { questionId, messageId } = await posts(kv);
  const other = await posts(kv, "A flagged question");
  const now = 1_900_000_000_000;

  // hide: a post nobody flagged.
  assert.deepEqual(await act(kv, "question", questionId, "hide", now), { ok: true });
  assert.equal(await getQuestion(kv, questionId), null);
  assert.equal(
    (await kv.get<{ by: string }>(keys.hiddenPost("question", questionId))).value?.by,
    moderator.id,
  );
  // restore: visible again.
  assert.deepEqual(await act(kv, "question", questionId, "restore", now + 1), { ok: true });
  assert.ok(await getQuestion(kv, questionId));
  assert.deepEqual(await hiddenAmong(kv, [{ type: "question", id: questionId }]), new Set());

  // dismiss: the flags that hid a post were unfounded.
  for (const u of ["u-1", "u-2", "u-3"]) await flag(kv, u, "message", messageId);
  assert.equal(await getMessage(kv, messageId), null);
  assert.deepEqual(await act(kv, "message", messageId, "dismiss", now + 2), { ok: true });
  assert.ok(await getMessage(kv, messageId));
  assert.equal(await queueEntry(kv, "message", messageId), null, "off the queue");

  // delete: the soft delete, off the queue.
  await flag(kv, "u-1", "question", other.questionId, "offensive");
  assert.deepEqual(await act(kv, "question", other.questionId, "delete", now + 3), { ok: true });
  const deleted =
    (await kv.get<{ deletedAt?: number; deletedBy?: string }>(keys.question(other.questionId)))
      .value;
  assert.deepEqual([deleted?.deletedAt, deleted?.deletedBy], [now + 3, moderator.id]);
  assert.equal(await queueEntry(kv, "question", other.questionId), null);
  assert.deepEqual(await modQueue(kv), []);

  // Nothing to act on — deleted (final), or not found — and nothing logged.
  assert.deepEqual(await act(kv, "question", other.questionId, "hide", now + 4), {
    ok: false,
    reason: "deleted",
  });
  assert.deepEqual(await act(kv, "message", "msg-missing", "delete", now + 5), {
    ok: false,
    reason: "not_found",
  });

  const { entries, nextCursor } = await modLog(kv, null);
  assert.equal(nextCursor, null);
  assert.deepEqual(
    entries.map((e) => [e.action, e.targetType, e.targetId, e.questionId, e.moderator.id, e.at]),
    [
      ["delete", "question", other.questionId, other.questionId, moderator.id, now + 3],
      ["dismiss", "message", messageId, questionId, moderator.id, now + 2],
      ["restore", "question", questionId, questionId, moderator.id, now + 1],
      ["hide", "question", questionId, questionId, moderator.id, now],
    ],
  );
});

Deno.test("modQueue(): flagged posts in context, most flagged first, without deleted ones", async () => {
  using kv = await Deno.openKv(":memory:");
  const a = await posts(kv, "First flagged question");
  const b = await posts(kv, "Second flagged question");
  const notes = ["n1", "n2", "n3", "n4", "n5", "n6"];
  for (const [i, note] of notes.entries()) {
    await flag(kv, `u-${i}`, "message", b.messageId, i % 2 ? "spam" : "other", note);
  }
  await flag(kv, "u-1", "question", a.questionId, "off_topic");
  await flag(kv, "u-1", "message", a.messageId, "spam");
  await flag(kv, "u-2", "message", a.messageId, "spam");
  const queue = await modQueue(kv);
  // The third flag hid b's message: the three after it found nothing to flag.
  assert.deepEqual(queue.map((q) => [q.targetId, q.flags, q.hidden]), [
    [b.messageId, 3, true],
    [a.messageId, 2, false],
    [a.questionId, 1, false],
  ]);
  const top = queue[0];
  assert.equal(top.questionId, b.questionId);
  assert.equal(top.questionTitle, "Second flagged question");
  assert.deepEqual(top.author, { id: ada.id, name: ada.name });
  assert.equal(top.excerpt, "Cheap pills here");
  assert.deepEqual(top.reasons, { other: 2, spam: 1 });
  assert.deepEqual(top.notes, ["n3", "n2", "n1"], "newest first");
  assert.match(queue[2].excerpt, /First flagged question/);
  // Deleted by its author meanwhile: no longer shown in the queue.
  assert.ok(
    (await deleteMessage(kv, { messageId: a.messageId, userId: ada.id, moderator: false })).ok,
  );
  assert.ok(await queueEntry(kv, "message", a.messageId), "its entry is still stored");
  assert.deepEqual((await modQueue(kv)).map((q) => q.targetId), [b.messageId, a.questionId]);
});

Deno.test(`modLog(): ${LOG_PAGE} entries a page by cursor, newest first; a bad cursor is an empty page`, async () => {
  using kv = await Deno.openKv(":memory:");
  const { questionId } = await posts(kv);
  const n = LOG_PAGE + 5;
  for (let i = 0; i < n; i++) {
    assert.ok((await act(kv, "question", questionId, i % 2 ? "restore" : "hide", 1_000 + i)).ok);
  }
  const first = await modLog(kv, null);
  assert.equal(first.entries.length, LOG_PAGE);
  assert.ok(first.nextCursor);
  const second = await modLog(kv, first.nextCursor);
  assert.equal(second.nextCursor, null);
  const times = [...first.entries, ...second.entries].map((e) => e.at);
  assert.deepEqual(times, Array.from({ length: n }, (_, i) => 1_000 + n - 1 - i));
  assert.equal(new Set([...first.entries, ...second.entries].map((e) => e.id)).size, n);
  assert.deepEqual(await modLog(kv, "not-a-cursor"), { entries: [], nextCursor: null });
});

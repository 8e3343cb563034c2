/**
 * The compaction migration (lib/ops/compact.ts) on a store written with the previous
 * shapes: notifications as the code before compact storage wrote them (copies of the
 * title, excerpt and actor, no expiry), voters' activity rows holding copies of their
 * key's parts, newest-feed rows holding copies of their questions (before shape 3) and
 * authors' activity rows holding `{id, questionId}` (before shape 4), vote rows holding
 * `{voteType, createdAt}` (before shape 5); and on a store the
 * first migration finished (shape 2), which walks only the steps after it. The API serves the same content before, during
 * (an interrupted run, half the records rewritten) and after the migration run through
 * the job runner; fsck is clean after it; `fsck --repair` migrates too.
 */
import assert from "node:assert/strict";
import { jobRunner } from "@/lib/jobs/runner.ts";
import { keys } from "@/lib/kv/keys.ts";
import { invertTime } from "@/lib/kv/atomic.ts";
import { isCompactUserVote } from "@/lib/community/user_vote_rows.ts";
import { isCompactVote, voteOf } from "@/lib/community/vote_rows.ts";
import { excerpt } from "@/lib/markdown.ts";
import { markRead } from "@/lib/notifications/notifications.ts";
import type { MessageRecord } from "@/lib/community/messages/model.ts";
import { type QuestionRecord, snapshotOf } from "@/lib/community/questions/model.ts";
import {
  COMPACT_JOB,
  COMPACT_PROGRESS,
  compactStore,
  isCompacted,
  SHAPE_VERSION,
} from "@/lib/ops/compact.ts";
import { NOTIFICATION_PROBLEMS } from "@/lib/ops/fsck/notifications.ts";
import { VOTE_PROBLEMS } from "@/lib/ops/fsck/votes.ts";
import { QUESTION_PROBLEMS } from "@/lib/ops/fsck/questions.ts";
import { THREAD_PROBLEMS } from "@/lib/ops/fsck/threads.ts";
import { backupStore } from "@/lib/ops/backup.ts";
import { restoreStore } from "@/lib/ops/restore.ts";
import {
  isNotificationRef,
  type LegacyNotification,
  notificationOf,
} from "@/lib/notifications/stored.ts";
import { waitForJobs } from "../helpers/app.ts";
import { getAs, type Member } from "../helpers/community.ts";
import { check, type Community, community, repairClean } from "../helpers/fsck.ts";

/**
 * Rewrite every notification as the previous code stored it (what it pointed to copied in,
 * no expiry) and forget that the store was migrated: a store the previous shapes wrote.
 */
async function toPreviousShapes(kv: Deno.Kv): Promise<number> {
  let n = 0;
  for await (const e of kv.list({ prefix: ["notifications"] })) {
    const cur = notificationOf(e.key[2] as string, e.value)!;
    const [q, m] = await kv.getMany<[QuestionRecord, MessageRecord]>([
      keys.question(cur.questionId),
      keys.message(cur.messageId ?? "msg-none"),
    ]);
    const by = cur.type === "accepted" ? q.value!.author : m.value?.author;
    const legacy: LegacyNotification = {
      id: cur.id,
      type: cur.type,
      actor: cur.actorId && by ? { id: by.id, name: by.name, avatarUrl: by.avatar } : null,
      questionId: cur.questionId,
      messageId: cur.messageId,
      answerId: cur.answerId,
      title: q.value!.title,
      excerpt: excerpt(
        m.value ? m.value.content : q.value!.description || q.value!.title,
        140,
      ),
      count: cur.count,
      createdAt: cur.createdAt,
      updatedAt: cur.updatedAt,
      read: cur.read,
    };
    await kv.set(e.key, legacy);
    n++;
  }
  for await (const e of kv.list<string>({ prefix: ["user_votes"] })) {
    const [, , inv, targetType, targetId] = e.key;
    await kv.set(e.key, {
      targetType,
      targetId,
      voteType: e.value,
      createdAt: invertTime(inv as number),
    });
    n++;
  }
  n += await toCopiesInFeedRows(kv);
  n += await toObjectsInAuthorRows(kv);
  n += await toObjectsInVoteRows(kv);
  await kv.delete(keys.storeShape());
  await kv.delete(keys.backfill(COMPACT_PROGRESS));
  return n;
}

/** Newest-feed rows as the code before shape 3 wrote them: a copy of the question. */
async function toCopiesInFeedRows(kv: Deno.Kv): Promise<number> {
  let n = 0;
  for await (const e of kv.list<string>({ prefix: keys.questionsBySeqPrefix() })) {
    const q = (await kv.get<QuestionRecord>(keys.question(e.value))).value!;
    await kv.set(e.key, snapshotOf(q));
    n++;
  }
  return n;
}

/** Authors' activity rows as the code before shape 4 wrote them: `{id, questionId}`. */
async function toObjectsInAuthorRows(kv: Deno.Kv): Promise<number> {
  let n = 0;
  for await (const e of kv.list<string>({ prefix: ["messages_by_author"] })) {
    await kv.set(e.key, { id: e.key[3], questionId: e.value });
    n++;
  }
  return n;
}

/** Vote rows as the code before shape 5 wrote them: `{voteType, createdAt}`. */
async function toObjectsInVoteRows(kv: Deno.Kv): Promise<number> {
  let n = 0;
  for await (const e of kv.list({ prefix: ["votes"] })) {
    await kv.set(e.key, voteOf(e.value));
    n++;
  }
  return n;
}

/** The problems fsck reports for records in a previous shape. */
function legacyFound(found: Awaited<ReturnType<typeof check>>): number {
  return found.count("notifications", NOTIFICATION_PROBLEMS.legacy) +
    found.count("votes", VOTE_PROBLEMS.legacyActivity) +
    found.count("questions", QUESTION_PROBLEMS.legacyFeedRow) +
    found.count("threads", THREAD_PROBLEMS.legacyAuthorRow) +
    found.count("votes", VOTE_PROBLEMS.legacyVote);
}

/** Every member's notifications as the API serves them. */
async function served(c: Community): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, who] of Object.entries({ ada: c.ada, bob: c.bob, cy: c.cy })) {
    for (
      const path of [
        "/api/notifications",
        "/api/profile/activity?type=likes",
        `/api/questions/${c.q1}`,
        "/api/questions?sort=new",
        "/api/questions?sort=hot",
        "/api/questions?filter=unanswered",
        "/api/profile/activity?type=answers",
      ]
    ) {
      const res = await getAs(c.t, who as Member, path);
      assert.equal(res.status, 200, path);
      out[`${name} ${path}`] = await res.json();
    }
  }
  return out;
}

async function storedShapes(kv: Deno.Kv): Promise<{ refs: number; legacy: number }> {
  let refs = 0;
  let legacy = 0;
  for await (const e of kv.list({ prefix: ["notifications"] })) {
    if (isNotificationRef(e.value)) refs++;
    else legacy++;
  }
  for await (const e of kv.list({ prefix: ["user_votes"] })) {
    if (isCompactUserVote(e.value)) refs++;
    else legacy++;
  }
  for (const prefix of [keys.questionsBySeqPrefix(), ["messages_by_author"], ["votes"]]) {
    for await (const e of kv.list({ prefix })) {
      if (typeof e.value === "string" || isCompactVote(e.value)) refs++;
      else legacy++;
    }
  }
  return { refs, legacy };
}

Deno.test("the migration rewrites a previous-shape store through the job runner, resuming an interrupted run; the API serves the same; fsck is clean", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    await waitForJobs(); // the answer fan-out to followers
    // Bob read one of his (the stored `read` flag moves over too).
    const bobs = await (await getAs(c.t, c.bob, "/api/notifications")).json();
    assert.ok(bobs.notifications.length > 0);
    await markRead(kv, c.bob.id, [bobs.notifications[0].id]);
    const total = await toPreviousShapes(kv);
    assert.ok(total >= 3, `notifications to migrate: ${total}`);
    assert.equal(await isCompacted(kv), false);
    const before = await served(c);
    const bobRead =
      (before["bob /api/notifications"] as { notifications: { read: boolean }[] }).notifications;
    assert.ok(bobRead.some((n) => n.read) && bobRead.some((n) => !n.read));
    const likes = before["ada /api/profile/activity?type=likes"] as { activities: unknown[] };
    assert.ok(likes.activities.length > 0, "Ada's likes are listed from the activity rows");
    // fsck knows the previous shape: reported, not wrongly judged otherwise.
    const found = await check(kv);
    assert.equal(legacyFound(found), total);
    assert.equal(found.problems, total, found.lines().join("\n"));

    // An interrupted run: one batch of two, then the process stops.
    const part = await compactStore(kv, { batch: 2, maxBatches: 1 });
    assert.equal(part.doneAt, undefined);
    assert.equal(part.rewritten, 2);
    assert.deepEqual(await storedShapes(kv), { refs: 2, legacy: total - 2 });
    assert.deepEqual(await served(c), before, "both shapes read the same");

    // The job resumes after the cursor (a new pass makes its periodic record due now).
    await kv.delete(keys.job(COMPACT_JOB, "main"));
    await jobRunner(kv).tryPass();
    await waitForJobs(10_000, COMPACT_JOB);
    assert.equal(await isCompacted(kv), true);
    assert.equal((await kv.get(keys.storeShape())).value, SHAPE_VERSION);
    const progress = (await kv.get<{ rewritten: number }>(keys.backfill(COMPACT_PROGRESS))).value!;
    assert.equal(progress.rewritten, total, "each rewritten once");
    assert.deepEqual(await storedShapes(kv), { refs: total, legacy: 0 });
    assert.deepEqual(await served(c), before, "the same content after the migration");
    const page = await (await getAs(c.t, c.ada, "/notifications")).text();
    assert.ok(page.includes("How does Deno KV order keys"), "the page renders the title");

    const after = await check(kv);
    assert.ok(after.clean, after.lines().join("\n"));
  } finally {
    await c.t.close();
  }
});

Deno.test("fsck --repair migrates a previous-shape store and records its shape", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    await waitForJobs();
    const total = await toPreviousShapes(kv);
    const before = await served(c);
    const found = await repairClean(kv);
    assert.equal(legacyFound(found), total);
    assert.deepEqual(await storedShapes(kv), { refs: total, legacy: 0 });
    assert.equal(await isCompacted(kv), true);
    assert.deepEqual(await served(c), before);
  } finally {
    await c.t.close();
  }
});

Deno.test("a restored backup of a previous-shape store is migrated again, even over a store already marked current", async () => {
  const c = await community();
  const dir = await Deno.makeTempDir({ prefix: "compact-restore-" });
  try {
    await waitForJobs();
    const total = await toPreviousShapes(c.t.kv);
    const file = `${dir}/old.backup.gz`;
    await backupStore(c.t.kv, file);
    using target = await Deno.openKv(`${dir}/restored.kv`);
    await target.set(keys.storeShape(), SHAPE_VERSION); // a store whose job already ran
    const restored = await restoreStore(target, file, { force: true });
    assert.ok(restored.ok, restored.ok ? "" : restored.reason);
    assert.equal(await isCompacted(target), false, "the backup had no shape key: walk again");
    assert.deepEqual(await storedShapes(target), { refs: 0, legacy: total });
    const done = await compactStore(target);
    assert.equal(done.rewritten, total);
    assert.deepEqual(await storedShapes(target), { refs: total, legacy: 0 });
    const after = await check(target);
    assert.ok(after.clean, after.lines().join("\n"));
  } finally {
    await c.t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a store the first migration finished (shape 2) walks only the steps after it (newest-feed, activity and vote rows), through the job runner at its first pass after the upgrade; fsck is clean", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    await waitForJobs();
    await compactStore(kv); // today's shapes everywhere, shape key set
    // What the first migration left: shape 2, its finished progress, and feed-row copies.
    const feedRows = await toCopiesInFeedRows(kv);
    const authorRows = await toObjectsInAuthorRows(kv);
    const voteRows = await toObjectsInVoteRows(kv);
    assert.ok(feedRows >= 2 && authorRows >= 1 && voteRows >= 1, `${feedRows}, ${authorRows}`);
    const rows = feedRows + authorRows + voteRows;
    await kv.set(keys.storeShape(), 2);
    await kv.set(keys.backfill(COMPACT_PROGRESS), {
      step: 1,
      after: null,
      rewritten: 9,
      doneAt: Date.now() - 1000,
    });
    assert.equal(await isCompacted(kv), false);
    const before = await served(c);
    assert.equal(legacyFound(await check(kv)), rows);

    // The job's record as the code before revisions left it after its run: next due in a
    // day. The upgraded code's first pass runs it anyway, its revision being newer.
    await kv.set(keys.job(COMPACT_JOB, "main"), {
      owner: "previous-release",
      claims: 0,
      due: Date.now() + 24 * 60 * 60_000,
      released: true,
    });
    await jobRunner(kv).tryPass();
    await waitForJobs(10_000, COMPACT_JOB);
    assert.equal((await kv.get(keys.storeShape())).value, SHAPE_VERSION);
    const rec = await kv.get<{ due: number; revision: number }>(keys.job(COMPACT_JOB, "main"));
    assert.equal(rec.value?.revision, SHAPE_VERSION);
    assert.ok(rec.value!.due > Date.now() + 23 * 60 * 60_000, "then waits a day again");
    const progress = (await kv.get<{ rewritten: number }>(keys.backfill(COMPACT_PROGRESS))).value!;
    assert.equal(progress.rewritten, rows, "only the rows of shapes 3–5 were rewritten");
    assert.deepEqual((await storedShapes(kv)).legacy, 0);
    assert.deepEqual(await served(c), before, "the same content after the migration");
    const after = await check(kv);
    assert.ok(after.clean, after.lines().join("\n"));
  } finally {
    await c.t.close();
  }
});

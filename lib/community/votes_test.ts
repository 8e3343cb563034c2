import assert from "node:assert/strict";
import { readCounters } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { DEFAULT_LIMITS } from "../limits/posting.ts";
import { type HitLog, loggedTimes } from "../limits/window.ts";
import { moderate } from "../moderation/moderation.ts";
import type { Sanction } from "../moderation/sanctions.ts";
import { deleteMessage } from "./message_lifecycle.ts";
import { addMessage } from "./messages/write.ts";
import type { Author } from "./questions/model.ts";
import { createQuestion } from "./questions/write.ts";
import { VoterPrivacy } from "./vote_privacy.ts";
import { listNotifications } from "../notifications/notifications.ts";
import { userVoteOf } from "./user_vote_rows.ts";
import { voteOf } from "./vote_rows.ts";
import {
  castVote,
  type CastVoteResult,
  listVoters,
  userVotesOn,
  voteCommitStats,
  type VoteInput,
  type VoteResult,
} from "./votes.ts";

const author: Author = { id: "u-author", name: "Author", avatar: null };
const HOUR = 3_600_000;

/** A question by `author` with one answer by `author`. */
async function post(kv: Deno.Kv, by: Author = author) {
  const q = await createQuestion(kv, {
    title: "Which KV layout is best?",
    author: by,
    createdBy: "user",
  });
  const m = await addMessage(kv, {
    questionId: q.id,
    author: by,
    content: "Per-voter keys.",
    createdBy: "user",
  });
  assert.ok(m.ok);
  return { questionId: q.id, messageId: m.message.id };
}

/** The vote of a cast that must have gone through. */
function voted(r: CastVoteResult): VoteResult {
  assert.ok(r.ok, JSON.stringify(r));
  return r.vote;
}

async function countsOf(kv: Deno.Kv, type: "question" | "message", id: string) {
  const [up, down] = await readCounters(kv, [
    keys.voteCount(type, id, "up"),
    keys.voteCount(type, id, "down"),
  ]);
  return { up, down };
}

async function userVoteEntries(kv: Deno.Kv, userId: string) {
  const list = await Array.fromAsync(kv.list({ prefix: keys.userVotesPrefix(userId) }));
  return list.map((e) => {
    const v = userVoteOf(e.key, e.value)!;
    return [v.targetType, v.targetId, v.voteType];
  });
}

for (const targetType of ["question", "message"] as const) {
  Deno.test(`castVote(): on a ${targetType}, up, switch to down, withdraw — each answer and the stored votes agree`, async () => {
    using kv = await Deno.openKv(":memory:");
    const { questionId, messageId } = await post(kv);
    const targetId = targetType === "question" ? questionId : messageId;
    const vote = (voteType: "up" | "down") =>
      castVote(kv, { userId: "u-voter", targetType, targetId, voteType });

    assert.deepEqual(voted(await vote("up")), {
      action: "liked",
      upvotes: 1,
      downvotes: 0,
      liked: true,
      downvoted: false,
    });
    assert.deepEqual(await listVoters(kv, targetType, targetId, new VoterPrivacy(kv, "u-voter")), {
      likedBy: ["u-voter"],
      dislikedBy: [],
    });
    assert.deepEqual(voted(await vote("down")), {
      action: "downvoted",
      upvotes: 0,
      downvotes: 1,
      liked: false,
      downvoted: true,
    });
    assert.deepEqual(await listVoters(kv, targetType, targetId, new VoterPrivacy(kv, "u-voter")), {
      likedBy: [],
      dislikedBy: ["u-voter"],
    });
    assert.deepEqual(await userVotesOn(kv, "u-voter", targetType, [targetId]), {
      [targetId]: "down",
    });
    assert.deepEqual(voted(await vote("down")), {
      action: "undownvoted",
      upvotes: 0,
      downvotes: 0,
      liked: false,
      downvoted: false,
    });
    assert.deepEqual(await listVoters(kv, targetType, targetId, new VoterPrivacy(kv, "u-voter")), {
      likedBy: [],
      dislikedBy: [],
    });
    assert.deepEqual(await userVotesOn(kv, "u-voter", targetType, [targetId]), {});
    assert.deepEqual(await countsOf(kv, targetType, targetId), { up: 0, down: 0 });
    // A second up withdraws the first.
    assert.equal(voted(await vote("up")).action, "liked");
    assert.deepEqual(voted(await vote("up")), {
      action: "unliked",
      upvotes: 0,
      downvotes: 0,
      liked: false,
      downvoted: false,
    });
    assert.equal((await kv.get(keys.vote(targetType, targetId, "u-voter"))).value, null);
  });
}

Deno.test("castVote(): nobody votes on their own post, and the refusal writes nothing", async () => {
  using kv = await Deno.openKv(":memory:");
  const { questionId, messageId } = await post(kv);
  const limits = { ...DEFAULT_LIMITS, votesPerHour: 5 };
  for (
    const [targetType, targetId] of [["question", questionId], ["message", messageId]] as const
  ) {
    for (const voteType of ["up", "down"] as const) {
      const r = await castVote(
        kv,
        { userId: author.id, targetType, targetId, voteType },
        Date.now(),
        {
          limits,
        },
      );
      assert.deepEqual(r, { ok: false, reason: "own_post" });
    }
    assert.deepEqual(await countsOf(kv, targetType, targetId), { up: 0, down: 0 });
    assert.deepEqual(await listVoters(kv, targetType, targetId, new VoterPrivacy(kv, "u-voter")), {
      likedBy: [],
      dislikedBy: [],
    });
  }
  assert.deepEqual(await userVoteEntries(kv, author.id), []);
  assert.equal(
    (await kv.get(keys.rateLimitLog("post_votes", author.id))).value,
    null,
    "no budget spent",
  );
  const [received] = await readCounters(kv, [keys.userStat(author.id, "upvotes_received")]);
  assert.equal(received, 0);
});

Deno.test("castVote(): a missing, deleted or hidden post is not_found", async () => {
  using kv = await Deno.openKv(":memory:");
  const { questionId, messageId } = await post(kv);
  const up = (targetType: VoteInput["targetType"], targetId: string) =>
    castVote(kv, { userId: "u-voter", targetType, targetId, voteType: "up" });
  assert.deepEqual(await up("question", "q-nothing-here"), { ok: false, reason: "not_found" });
  assert.deepEqual(await up("message", "msg-nothing-here"), { ok: false, reason: "not_found" });
  assert.deepEqual(await up("message", ""), { ok: false, reason: "not_found" });
  assert.deepEqual(await up("message", questionId), { ok: false, reason: "not_found" });

  const hidden = await moderate(kv, {
    moderator: { id: "u-mod", name: "Mo" },
    targetType: "question",
    targetId: questionId,
    action: "hide",
  });
  assert.ok(hidden.ok);
  assert.deepEqual(await up("question", questionId), { ok: false, reason: "not_found" });

  assert.ok((await deleteMessage(kv, { messageId, userId: author.id, moderator: false })).ok);
  assert.deepEqual(await up("message", messageId), { ok: false, reason: "not_found" });
  assert.deepEqual(await countsOf(kv, "question", questionId), { up: 0, down: 0 });
  assert.deepEqual(await countsOf(kv, "message", messageId), { up: 0, down: 0 });
});

Deno.test("castVote(): the votes budget refuses the vote over it with when to retry, writes nothing for it, and frees up after the window", async () => {
  using kv = await Deno.openKv(":memory:");
  const limits = { ...DEFAULT_LIMITS, votesPerHour: 2 };
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await post(kv)).questionId);
  const start = 10 * HOUR;
  const up = (targetId: string, now: number) =>
    castVote(kv, { userId: "u-voter", targetType: "question", targetId, voteType: "up" }, now, {
      limits,
    });
  assert.equal(voted(await up(ids[0], start)).action, "liked");
  assert.equal(voted(await up(ids[1], start + 1_000)).action, "liked");
  const refused = await up(ids[2], start + 2_000);
  assert.ok(!refused.ok && refused.reason === "rate_limited", JSON.stringify(refused));
  assert.equal(refused.kind, "votes");
  assert.equal(refused.limit, 2);
  // The first vote of the window leaves it an hour after it was cast.
  assert.equal(refused.retryAfter, Math.ceil((HOUR - 2_000) / 1000));
  assert.deepEqual(await countsOf(kv, "question", ids[2]), { up: 0, down: 0 });
  assert.equal((await kv.get(keys.vote("question", ids[2], "u-voter"))).value, null);
  const log = await kv.get<HitLog>(keys.rateLimitLog("post_votes", "u-voter"));
  assert.equal(loggedTimes(log.value).length, 2, "the refused vote spent nothing");
  // A withdrawal is a vote too: it spends from the same budget.
  const withdraw = await up(ids[0], start + 3_000);
  assert.ok(!withdraw.ok && withdraw.reason === "rate_limited");
  assert.equal((await userVotesOn(kv, "u-voter", "question", [ids[0]]))[ids[0]], "up");
  // An hour after the first vote, one more fits.
  assert.equal(voted(await up(ids[2], start + HOUR + 1)).action, "liked");
  assert.deepEqual(await countsOf(kv, "question", ids[2]), { up: 1, down: 0 });
});

Deno.test("castVote(): 60 voters at once on one answer — counters, voter lists and the author's statistics exact, in fewer commits than votes", async () => {
  using kv = await Deno.openKv(":memory:");
  const { messageId } = await post(kv);
  const voters = Array.from({ length: 60 }, (_, i) => `u-crowd-${i}`);
  // The first 20 had voted down: their up is a switch.
  for (const userId of voters.slice(0, 20)) {
    voted(
      await castVote(kv, { userId, targetType: "message", targetId: messageId, voteType: "down" }),
    );
  }
  assert.deepEqual(await countsOf(kv, "message", messageId), { up: 0, down: 20 });
  const before = voteCommitStats(kv);
  const results = await Promise.all(
    voters.map((userId) =>
      castVote(kv, { userId, targetType: "message", targetId: messageId, voteType: "up" })
    ),
  );
  const after = voteCommitStats(kv);
  for (const [i, r] of results.entries()) {
    const v = voted(r);
    assert.equal(v.action, "liked");
    // Its own up is in its answer, and nobody's vote is invented; a switcher's own down is
    // gone from its answer.
    assert.ok(v.upvotes >= 1 && v.upvotes <= 60, `${v.upvotes}`);
    const most = i < 20 ? 19 : 20;
    assert.ok(v.downvotes >= 0 && v.downvotes <= most, `${v.downvotes}`);
  }
  assert.ok(after.groups - before.groups < 60, `${after.groups - before.groups} commits`);
  assert.deepEqual(await countsOf(kv, "message", messageId), { up: 60, down: 0 });
  // Voters with a public vote history are named to anyone (lib/community/vote_privacy.ts).
  for (const userId of voters) await kv.set(keys.settings(userId), { voteHistory: "public" });
  const { likedBy, dislikedBy } = await listVoters(
    kv,
    "message",
    messageId,
    new VoterPrivacy(kv, null),
  );
  assert.deepEqual(likedBy.sort(), [...voters].sort());
  assert.deepEqual(dislikedBy, []);
  const [received, best] = await readCounters(kv, [
    keys.userStat(author.id, "upvotes_received"),
    keys.userStat(author.id, "best_answer_upvotes"),
  ]);
  assert.equal(received, 60);
  assert.equal(best, 60, "the peak is confirmed against the committed counter");
  // Everyone withdraws at once: back to zero, the peak stays.
  const again = await Promise.all(
    voters.map((userId) =>
      castVote(kv, { userId, targetType: "message", targetId: messageId, voteType: "up" })
    ),
  );
  assert.ok(again.every((r) => voted(r).action === "unliked"));
  const [up, down, receivedAfter, bestAfter] = await readCounters(kv, [
    keys.voteCount("message", messageId, "up"),
    keys.voteCount("message", messageId, "down"),
    keys.userStat(author.id, "upvotes_received"),
    keys.userStat(author.id, "best_answer_upvotes"),
  ]);
  assert.deepEqual([up, down, receivedAfter, bestAfter], [0, 0, 0, 60]);
});

/** `kv` with every `getMany` recorded as the keys it read. */
function recordingReads(kv: Deno.Kv, reads: Deno.KvKey[][]): Deno.Kv {
  return new Proxy(kv, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      if (prop !== "getMany") return v.bind(target);
      return (keys: Deno.KvKey[], ...rest: unknown[]) => {
        reads.push(keys);
        return v.call(target, keys, ...rest);
      };
    },
  });
}

Deno.test("castVote(): a crowd on one post shares the reads of its record and counts, and each voter's next vote sees its own last one", async () => {
  using store = await Deno.openKv(":memory:");
  const { questionId } = await post(store);
  const reads: Deno.KvKey[][] = [];
  const kv = recordingReads(store, reads);
  const voters = Array.from({ length: 40 }, (_, i) => `u-share-${i}`);
  const vote = (userId: string) =>
    castVote(kv, { userId, targetType: "question", targetId: questionId, voteType: "up" });
  const first = await Promise.all(voters.map(vote));
  assert.ok(first.every((r) => voted(r).action === "liked"));
  const ofTarget = reads.filter((ks) =>
    ks.some((k) => k[0] === keys.question(questionId)[0] && k[1] === questionId)
  );
  assert.ok(ofTarget.length < voters.length / 2, `${ofTarget.length} reads of the question`);
  // Per vote, one read of the voter's own keys: its vote and its sanction (no budget here).
  const own = reads.filter((ks) => ks.some((k) => k[0] === keys.vote("question", "", "")[0]));
  assert.equal(own.length, voters.length);
  assert.ok(own.every((ks) => ks.length === 2), JSON.stringify(own[0]));
  assert.deepEqual(await countsOf(kv, "question", questionId), { up: 40, down: 0 });
  // Then each voter withdraws, one after the other: each answer counts every like before it.
  for (const [i, userId] of voters.entries()) {
    const v = voted(await vote(userId));
    assert.equal(v.action, "unliked");
    assert.equal(
      v.upvotes,
      40 - i - 1,
      "the answer saw every committed vote, its own last one too",
    );
  }
});

Deno.test("castVote(): a sanction the caller read is not read again, and still refuses", async () => {
  using store = await Deno.openKv(":memory:");
  const { questionId } = await post(store);
  const reads: Deno.KvKey[][] = [];
  const kv = recordingReads(store, reads);
  const input: VoteInput = {
    userId: "u-known",
    targetType: "question",
    targetId: questionId,
    voteType: "up",
  };
  const now = Date.now();
  const silence: Sanction = {
    action: "silence",
    reason: "spam",
    until: now + HOUR,
    at: now - 1000,
    by: { id: "u-mod", name: "Mod" },
  };
  const refused = await castVote(kv, input, now, { sanction: silence });
  assert.equal(refused.ok, false);
  assert.equal(!refused.ok && refused.reason, "restricted");
  assert.ok(voted(await castVote(kv, input, now, { sanction: null })).liked);
  const sanctionKey = JSON.stringify(keys.sanction("u-known"));
  assert.ok(reads.flat().every((k) => JSON.stringify(k) !== sanctionKey), "never read");
  // Left out, the vote reads it.
  await castVote(kv, input, now);
  assert.ok(reads.flat().some((k) => JSON.stringify(k) === sanctionKey));
});

Deno.test("castVote(): one voter's concurrent toggles on one post end in one consistent state", async () => {
  using kv = await Deno.openKv(":memory:");
  const { questionId } = await post(kv);
  const results = await Promise.all(
    Array.from({ length: 11 }, () =>
      castVote(kv, {
        userId: "u-eager",
        targetType: "question",
        targetId: questionId,
        voteType: "up",
      })),
  );
  const actions = results.map((r) => voted(r).action);
  assert.equal(actions.filter((a) => a === "liked").length, 6);
  assert.equal(actions.filter((a) => a === "unliked").length, 5);
  assert.deepEqual(await countsOf(kv, "question", questionId), { up: 1, down: 0 });
  assert.equal(
    voteOf((await kv.get(keys.vote("question", questionId, "u-eager"))).value)?.voteType,
    "up",
  );
  assert.deepEqual(await userVoteEntries(kv, "u-eager"), [["question", questionId, "up"]]);
  const [received] = await readCounters(kv, [keys.userStat(author.id, "upvotes_received")]);
  assert.equal(received, 1);
});

Deno.test("castVote(): the voter's activity index and the author's statistics are written with the vote", async () => {
  using kv = await Deno.openKv(":memory:");
  const { questionId, messageId } = await post(kv);
  const vote = (
    targetType: "question" | "message",
    targetId: string,
    voteType: "up" | "down",
    now: number,
  ) => castVote(kv, { userId: "u-voter", targetType, targetId, voteType }, now);
  const received = async () =>
    (await readCounters(kv, [keys.userStat(author.id, "upvotes_received")]))[0];
  voted(await vote("question", questionId, "up", 1_000));
  voted(await vote("message", messageId, "down", 2_000));
  assert.deepEqual(await userVoteEntries(kv, "u-voter"), [
    ["message", messageId, "down"],
    ["question", questionId, "up"],
  ], "newest first");
  assert.equal(await received(), 1);
  voted(await vote("message", messageId, "up", 3_000)); // down → up: +1
  assert.equal(await received(), 2);
  voted(await vote("question", questionId, "down", 4_000)); // up → down: −1
  assert.equal(await received(), 1);
  assert.deepEqual(await userVoteEntries(kv, "u-voter"), [
    ["question", questionId, "down"],
    ["message", messageId, "up"],
  ], "a switched vote moves to its new time, the old entry is gone");
  voted(await vote("message", messageId, "up", 5_000)); // withdraw: −1
  assert.equal(await received(), 0);
  assert.deepEqual(await userVoteEntries(kv, "u-voter"), [["question", questionId, "down"]]);
  const [bestQuestion, bestAnswer] = await readCounters(kv, [
    keys.userStat(author.id, "best_question_upvotes"),
    keys.userStat(author.id, "best_answer_upvotes"),
  ]);
  assert.deepEqual([bestQuestion, bestAnswer], [1, 1], "the peaks stay after the votes go");
});

Deno.test("castVote(): a vote on an AI expert's answer moves its counts, nobody's statistics", async () => {
  using kv = await Deno.openKv(":memory:");
  const { questionId } = await post(kv);
  const expert: Author = { id: "expert-kv", name: "The KV expert", avatar: null };
  const m = await addMessage(kv, {
    questionId,
    author: expert,
    authorType: "ai",
    expertId: "kv",
    content: "An expert's view.",
    createdBy: "system",
  }, { notify: "nobody", authorFollows: false });
  assert.ok(m.ok);
  const r = voted(
    await castVote(kv, {
      userId: "u-voter",
      targetType: "message",
      targetId: m.message.id,
      voteType: "up",
    }),
  );
  assert.equal(r.upvotes, 1);
  assert.deepEqual(await countsOf(kv, "message", m.message.id), { up: 1, down: 0 });
  const stats = await readCounters(kv, [
    keys.userStat(expert.id, "upvotes_received"),
    keys.userStat(expert.id, "best_answer_upvotes"),
  ]);
  assert.deepEqual(stats, [0, 0]);
});

Deno.test("userVotesOn(): a voter's votes on more posts than one read holds, absent where none", async () => {
  using kv = await Deno.openKv(":memory:");
  const { questionId } = await post(kv);
  const ids: string[] = [];
  for (let i = 0; i < 23; i++) {
    const m = await addMessage(kv, {
      questionId,
      author,
      content: `answer ${i}`,
      createdBy: "user",
    });
    assert.ok(m.ok);
    ids.push(m.message.id);
  }
  const want: Record<string, "up" | "down"> = {};
  for (const [i, id] of ids.entries()) {
    if (i % 3 === 2) continue;
    const voteType = i % 3 === 0 ? "up" : "down";
    voted(await castVote(kv, { userId: "u-voter", targetType: "message", targetId: id, voteType }));
    want[id] = voteType;
  }
  assert.deepEqual(await userVotesOn(kv, "u-voter", "message", ids), want);
  assert.deepEqual(await userVotesOn(kv, "u-other", "message", ids), {});
});

Deno.test("castVote(): likes' follow-up work — the peak, the badge, the notification — reads the author's statistics with the liked post's count and the post not again", async () => {
  using kv = await Deno.openKv(":memory:");
  const { questionId, messageId } = await post(kv);
  // A reply to the answer: its likes notify about the answer it sits under.
  const reply = await addMessage(kv, {
    questionId,
    author,
    content: "A reply.",
    replyTo: messageId,
    createdBy: "user",
  });
  assert.ok(reply.ok);
  const reads: Deno.KvKey[][] = [];
  const recorded = recordingReads(kv, reads);
  const voters = Array.from({ length: 50 }, (_, i) => `u-fan-${i}`);
  await Promise.all(
    voters.map((userId) =>
      castVote(recorded, { userId, targetType: "question", targetId: questionId, voteType: "up" })
    ),
  );
  voted(
    await castVote(recorded, {
      userId: "u-fan-0",
      targetType: "message",
      targetId: reply.message.id,
      voteType: "up",
    }),
  );
  // The peak and the badge it earns, and one notification per liked post with every like.
  const [best] = await readCounters(kv, [keys.userStat(author.id, "best_question_upvotes")]);
  assert.equal(best, 50);
  assert.notEqual((await kv.get(keys.badge(author.id, "popular-question"))).versionstamp, null);
  const { notifications: items, links } = await listNotifications(kv, author.id, null, Date.now());
  const upvotes = items.filter((n) => n.type === "upvotes");
  const onQuestion = upvotes.find((n) => n.messageId === null);
  const onReply = upvotes.find((n) => n.messageId === reply.message.id);
  assert.equal(onQuestion?.count, 50);
  assert.equal(onQuestion?.questionId, questionId);
  assert.equal(onReply?.count, 1);
  // A reply's like links to the thread of the answer it sits under.
  const replyLink = links[items.indexOf(onReply!)];
  assert.ok(replyLink.includes(`answer=${encodeURIComponent(messageId)}`), replyLink);
  // Every read of the author's statistics also read the liked posts' up counts (one round
  // trip where there were two), and the only reads of the question are the votes' own.
  const statReads = reads.filter((r) =>
    r.some((k) => sameKey(k, keys.userStat(author.id, "questions")))
  );
  assert.ok(statReads.length > 0);
  for (const r of statReads) {
    assert.ok(r.some((k) => k[0] === keys.voteCount("question", questionId, "up")[0]), `${r}`);
  }
  for (const r of reads.filter((r) => r.some((k) => sameKey(k, keys.question(questionId))))) {
    assert.ok(r.some((k) => sameKey(k, keys.voteCount("question", questionId, "up"))), `${r}`);
  }
});

function sameKey(a: Deno.KvKey, b: Deno.KvKey): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

import { keys } from "../kv/keys.ts";
import assert from "node:assert/strict";
import { moderate } from "../moderation/moderation.ts";
import { acceptAnswer } from "./accept.ts";
import { deleteMessage } from "./message_lifecycle.ts";
import { DELETED_AUTHOR } from "./messages/model.ts";
import { addMessage } from "./messages/write.ts";
import type { Author } from "./questions/model.ts";
import { deleteQuestion } from "./questions/delete.ts";
import { createQuestion } from "./questions/write.ts";
import {
  ANSWERS_PER_PAGE,
  type AnswerSort,
  getQuestionThreadPage,
  readThreadPage,
  REPLIES_PER_ANSWER,
} from "./thread.ts";
import { castVote } from "./votes.ts";

const ada: Author = { id: "u-ada", name: "Ada", avatar: null };
const bob: Author = { id: "u-bob", name: "Bob", avatar: null };
const moderator = { id: "u-mod", name: "Mo" };

/** A thread whose posts are written one second apart, in the order they are added. */
async function thread(kv: Deno.Kv, title = "A long thread") {
  let clock = 1_900_000_000_000;
  const q = await createQuestion(kv, { title, author: ada, createdBy: "user" }, { now: clock });
  const add = async (content: string, by: Author = bob, replyTo?: string) => {
    const r = await addMessage(kv, {
      questionId: q.id,
      author: by,
      content,
      createdBy: "user",
      replyTo,
    }, {
      now: clock += 1_000,
    });
    assert.ok(r.ok, JSON.stringify(r));
    return r.message.id;
  };
  const answers = async (n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await add(`Answer ${i}`));
    return ids;
  };
  return { questionId: q.id, add, answers };
}

async function up(kv: Deno.Kv, userId: string, targetId: string, voteType: "up" | "down" = "up") {
  const r = await castVote(kv, { userId, targetType: "message", targetId, voteType });
  assert.ok(r.ok, JSON.stringify(r));
}

/** The ids of a page's top-level answers, in page order. */
function answerIds(page: { messages: { id: string; replyTo?: string }[] } | null): string[] {
  assert.ok(page);
  return page.messages.filter((m) => !m.replyTo).map((m) => m.id);
}

Deno.test("getQuestionThreadPage(): 30 answers a page in the sort's order, the totals on every page, an out-of-range page empty", async () => {
  using kv = await Deno.openKv(":memory:");
  const t = await thread(kv);
  const ids = await t.answers(65);
  const expected: Record<AnswerSort, string[]> = {
    oldest: ids,
    newest: [...ids].reverse(),
    // No votes: every score is 0, ties oldest first.
    votes: ids,
  };
  for (const sort of ["oldest", "newest", "votes"] as const) {
    const pages = [];
    for (let page = 1; page <= 4; page++) {
      const p = await getQuestionThreadPage(kv, t.questionId, { sort, page });
      assert.ok(p);
      assert.equal(p.answerCount, 65);
      assert.equal(p.pageCount, 3);
      assert.equal(p.page, page);
      assert.equal(p.sort, sort);
      pages.push(answerIds(p));
    }
    assert.deepEqual(pages.map((p) => p.length), [ANSWERS_PER_PAGE, ANSWERS_PER_PAGE, 5, 0], sort);
    assert.deepEqual(pages.flat(), expected[sort], sort);
  }
  // The default order is votes.
  assert.equal((await getQuestionThreadPage(kv, t.questionId, { page: 1 }))?.sort, "votes");
  assert.equal(await getQuestionThreadPage(kv, "q-no-such-question", { page: 1 }), null);
});

Deno.test("getQuestionThreadPage(): replies (any depth) follow their answer in time order, 50 a page, the rest behind answer + replyPage", async () => {
  using kv = await Deno.openKv(":memory:");
  const t = await thread(kv);
  const [first, second] = await t.answers(2);
  const replies: string[] = [];
  for (let i = 0; i < 54; i++) {
    // Every third reply answers the previous reply: depth does not change the order.
    const parent = i % 3 === 2 ? replies[i - 1] : first;
    replies.push(await t.add(`Reply ${i}`, i % 2 ? ada : bob, parent));
  }
  const late = await t.add("A later reply to the second answer", ada, second);
  const p = await getQuestionThreadPage(kv, t.questionId, { sort: "oldest", page: 1 });
  assert.ok(p);
  assert.deepEqual(
    p.messages.map((m) => m.id),
    [first, ...replies.slice(0, REPLIES_PER_ANSWER), second, late],
  );
  assert.deepEqual(p.replyCounts, [
    { answerId: first, replies: 54 },
    { answerId: second, replies: 1 },
  ]);
  assert.equal(p.answerCount, 2);
  assert.equal(p.messageCount, 2 + 54 + 1);

  const rest = await getQuestionThreadPage(kv, t.questionId, {
    page: 1,
    answer: first,
    replyPage: 2,
  });
  assert.ok(rest);
  assert.deepEqual(rest.messages.map((m) => m.id), [first, ...replies.slice(REPLIES_PER_ANSWER)]);
  assert.deepEqual(rest.replyCounts, [{ answerId: first, replies: 54 }]);
  const beyond = await getQuestionThreadPage(kv, t.questionId, {
    page: 1,
    answer: first,
    replyPage: 3,
  });
  assert.deepEqual(beyond?.messages.map((m) => m.id), [first], "the answer alone past its replies");
  // A reply is not an answer to page under.
  const notAnAnswer = await getQuestionThreadPage(kv, t.questionId, {
    page: 1,
    answer: replies[0],
  });
  assert.deepEqual(notAnAnswer?.messages, []);
});

Deno.test("getQuestionThreadPage(): sort=votes puts the accepted answer first, then up − down, ties oldest first, across pages", async () => {
  using kv = await Deno.openKv(":memory:");
  const t = await thread(kv);
  const ids = await t.answers(35);
  // The last answer (on page 2 by time) gets the most votes; two tie; one goes negative.
  for (const v of ["u-1", "u-2", "u-3"]) await up(kv, v, ids[34]);
  for (const v of ["u-1", "u-2"]) await up(kv, v, ids[20]);
  for (const v of ["u-1", "u-2"]) await up(kv, v, ids[5]);
  await up(kv, "u-1", ids[0], "down");
  // The accepted answer goes first whatever its score.
  const accepted = await acceptAnswer(kv, {
    questionId: t.questionId,
    userId: ada.id,
    messageId: ids[30],
  });
  assert.ok(accepted.ok);
  // Voter lists name voters whose vote history is public; these three made it so.
  for (const v of ["u-1", "u-2", "u-3"]) await kv.set(keys.settings(v), { voteHistory: "public" });
  const p1 = await getQuestionThreadPage(kv, t.questionId, { sort: "votes", page: 1 });
  const p2 = await getQuestionThreadPage(kv, t.questionId, { sort: "votes", page: 2 });
  const unvoted = ids.filter((_, i) => ![30, 34, 20, 5, 0].includes(i));
  const want = [ids[30], ids[34], ids[5], ids[20], ...unvoted, ids[0]];
  assert.deepEqual([...answerIds(p1), ...answerIds(p2)], want);
  assert.equal(answerIds(p1).length, ANSWERS_PER_PAGE);
  const top = p1!.messages[1];
  assert.deepEqual([top.id, top.upvotes, top.downvotes], [ids[34], 3, 0]);
  assert.deepEqual([...p1!.messages[1].likedBy].sort(), ["u-1", "u-2", "u-3"]);
  // A withdrawn vote moves the answer back down.
  for (const v of ["u-1", "u-2", "u-3"]) await up(kv, v, ids[34]);
  const after = await getQuestionThreadPage(kv, t.questionId, { sort: "votes", page: 1 });
  assert.deepEqual(answerIds(after).slice(0, 3), [ids[30], ids[5], ids[20]]);
  // The other orders ignore votes and the accepted mark.
  const oldest = await getQuestionThreadPage(kv, t.questionId, { sort: "oldest", page: 1 });
  assert.deepEqual(answerIds(oldest), ids.slice(0, ANSWERS_PER_PAGE));
});

Deno.test("getQuestionThreadPage(): a hidden answer or reply shows only to its author and moderators", async () => {
  using kv = await Deno.openKv(":memory:");
  const t = await thread(kv);
  const [kept, hiddenAnswer] = await t.answers(2);
  const hiddenReply = await t.add("A reply by Ada", ada, kept);
  const visibleReply = await t.add("Another reply", bob, kept);
  for (const targetId of [hiddenAnswer, hiddenReply]) {
    assert.ok(
      (await moderate(kv, { moderator, targetType: "message", targetId, action: "hide" })).ok,
    );
  }
  const seen = async (viewer: { userId: string; moderator?: boolean } | null) =>
    (await getQuestionThreadPage(kv, t.questionId, { sort: "oldest", page: 1 }, viewer))!.messages
      .map((m) => m.id);
  assert.deepEqual(await seen(null), [kept, visibleReply]);
  assert.deepEqual(await seen({ userId: "u-stranger" }), [kept, visibleReply]);
  // Bob wrote the hidden answer; Ada the hidden reply.
  assert.deepEqual(await seen({ userId: bob.id }), [kept, visibleReply, hiddenAnswer]);
  assert.deepEqual(await seen({ userId: ada.id }), [kept, hiddenReply, visibleReply]);
  assert.deepEqual(await seen({ userId: "u-mod", moderator: true }), [
    kept,
    hiddenReply,
    visibleReply,
    hiddenAnswer,
  ]);
  // Restored, it shows to everyone again.
  await moderate(kv, {
    moderator,
    targetType: "message",
    targetId: hiddenAnswer,
    action: "restore",
  });
  assert.deepEqual(await seen(null), [kept, visibleReply, hiddenAnswer]);
});

Deno.test("getQuestionThreadPage(): a deleted answer with replies stays as a placeholder, one without leaves the thread and its totals", async () => {
  using kv = await Deno.openKv(":memory:");
  const t = await thread(kv);
  const [withReplies, alone, other] = await t.answers(3);
  const reply = await t.add("A reply that keeps its parent", ada, withReplies);
  for (const messageId of [withReplies, alone]) {
    assert.ok((await deleteMessage(kv, { messageId, userId: bob.id, moderator: false })).ok);
  }
  for (const sort of ["oldest", "votes"] as const) {
    const p = await getQuestionThreadPage(kv, t.questionId, { sort, page: 1 }, { userId: bob.id });
    assert.ok(p);
    assert.deepEqual(p.messages.map((m) => m.id), [withReplies, reply, other], sort);
    assert.equal(p.answerCount, 2, sort);
    const placeholder = p.messages[0];
    assert.equal(placeholder.deleted, true);
    assert.equal(placeholder.content, "");
    assert.deepEqual(placeholder.author, DELETED_AUTHOR, "no trace of who wrote it, even to them");
    assert.equal(p.messages[1].content, "A reply that keeps its parent");
  }
});

Deno.test("getQuestionThreadPage(): a deleted or hidden question opens only for its author and moderators", async () => {
  using kv = await Deno.openKv(":memory:");
  const hidden = await thread(kv, "A question the flags hid");
  await hidden.answers(1);
  assert.ok(
    (await moderate(kv, {
      moderator,
      targetType: "question",
      targetId: hidden.questionId,
      action: "hide",
    })).ok,
  );
  const deleted = await thread(kv, "A question its author deleted");
  assert.ok(
    (await deleteQuestion(kv, { questionId: deleted.questionId, userId: ada.id, moderator: false }))
      .ok,
  );
  for (const { questionId } of [hidden, deleted]) {
    const open = (viewer: { userId: string; moderator?: boolean } | null) =>
      getQuestionThreadPage(kv, questionId, { page: 1 }, viewer);
    assert.equal(await open(null), null);
    assert.equal(await open({ userId: bob.id }), null);
    assert.equal((await open({ userId: ada.id }))?.id, questionId);
    assert.equal((await open({ userId: "u-mod", moderator: true }))?.id, questionId);
  }
});

Deno.test("readThreadPage(): one shared read serves every viewer, each filtered for them — never a page built for someone else", async () => {
  using kv = await Deno.openKv(":memory:");
  const t = await thread(kv);
  const [kept, hiddenAnswer] = await t.answers(2);
  await moderate(kv, { moderator, targetType: "message", targetId: hiddenAnswer, action: "hide" });
  type Viewer = { userId: string; moderator?: boolean } | null;
  const ids = async (viewer: Viewer | Promise<Viewer>) => {
    const p = await readThreadPage(kv, t.questionId, { sort: "oldest", page: 1 }, viewer, 60_000);
    assert.ok(p);
    assert.equal("likedBy" in p.messages[0], false, "the HTML page reads no voter lists");
    return { shown: p.messages.map((m) => m.id), hidden: p.hidden };
  };
  // The moderator fills the cache first; the visitor after them still gets the public page.
  assert.deepEqual(await ids({ userId: "u-mod", moderator: true }), {
    shown: [kept, hiddenAnswer],
    hidden: [hiddenAnswer],
  });
  assert.deepEqual(await ids(null), { shown: [kept], hidden: [] });
  assert.deepEqual(await ids({ userId: bob.id }), {
    shown: [kept, hiddenAnswer],
    hidden: [hiddenAnswer],
  });
  assert.deepEqual(await ids(Promise.resolve({ userId: ada.id })), { shown: [kept], hidden: [] });
  // A write through this process drops the shared read: the next viewer sees it.
  const late = await t.add("An answer after the cached read");
  assert.deepEqual((await ids(null)).shown, [kept, late]);
});

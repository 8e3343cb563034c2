/**
 * A post hidden by moderation leaves the public counts as a deleted one does, and comes
 * back into them when restored (docs/interface.md#moderation): a question's answer count
 * (API, lists, page heading, JSON-LD), the question total and tag totals (with full pages
 * and a right `hasMore`), the accepted answer (set aside while hidden, accepted again when
 * restored) — a delete after a hide takes nothing out twice, and fsck finds the store
 * clean after each step. Everything through the HTTP surface.
 */
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { createTestApp, type TestApp, waitForJobs } from "../helpers/app.ts";
import { startFakeLlm } from "../helpers/fake_llm.ts";
import {
  answer,
  ask,
  getAs,
  json,
  type Member,
  member,
  postAs,
  sendAs,
} from "../helpers/community.ts";
import { check, repairClean } from "../helpers/fsck.ts";
import { keys } from "@/lib/kv/keys.ts";
import { addToCounter, commit } from "@/lib/kv/atomic.ts";
import type { MessageRecord } from "@/lib/community/messages/model.ts";
import type { QuestionRecord } from "@/lib/community/questions/model.ts";

interface QuestionJson {
  answerCount: number;
  messageCount: number;
  acceptedMessageId: string | null;
  messages: { id: string }[];
}

interface FeedJson {
  questions: { id: string; answerCount: number; acceptedMessageId: string | null }[];
  total: number | null;
  hasMore: boolean;
}

/** Established members (each flag weighs 1) and a moderator. */
async function setup() {
  const t = await createTestApp({ env: { NEW_ACCOUNT_HOURS: "0" } });
  const [asker, a, b, c, d, mod] = await Promise.all(
    ["Asker", "Ann", "Ben", "Cat", "Dan", "Mo"].map((n) => member(t, n)),
  );
  t.services.config.moderators = [mod.id];
  return { t, asker, helpers: [a, b, c, d], mod };
}

async function moderate(
  t: TestApp,
  mod: Member,
  targetType: "question" | "message",
  targetId: string,
  action: "hide" | "restore" | "dismiss" | "delete",
): Promise<void> {
  const res = await postAs(t, mod, "/api/mod/actions", { targetType, targetId, action });
  assert.equal(res.status, 200, await res.text());
}

async function question(t: TestApp, who: Member | null, id: string): Promise<QuestionJson> {
  const { status, body } = await json<QuestionJson>(getAs(t, who, `/api/questions/${id}`));
  assert.equal(status, 200);
  return body;
}

async function feed(t: TestApp, query = ""): Promise<FeedJson> {
  const { status, body } = await json<FeedJson>(getAs(t, null, `/api/questions${query}`));
  assert.equal(status, 200);
  return body;
}

async function html(t: TestApp, path: string): Promise<string> {
  const res = await getAs(t, null, path);
  assert.equal(res.status, 200, path);
  return await res.text();
}

/** The answers heading and the JSON-LD answer count of a question page, signed out. */
async function page(t: TestApp, id: string): Promise<{ heading: string; ldAnswers: number }> {
  const { document } = parseHTML(await html(t, `/questions/${id}`));
  const heading = document.querySelector("#answers-heading")?.textContent ?? "";
  const script = document.querySelector('script[type="application/ld+json"]') as unknown as {
    textContent: string;
  };
  return { heading, ldAnswers: JSON.parse(script.textContent).mainEntity.answerCount };
}

async function matchCount(t: TestApp, path: string): Promise<string> {
  const { document } = parseHTML(await html(t, path));
  return document.querySelector('[data-testid="match-count"]')?.textContent?.trim() ?? "";
}

async function assertClean(kv: Deno.Kv, when: string): Promise<void> {
  const report = await check(kv);
  assert.equal(report.problems, 0, `${when}:\n${report.lines().join("\n")}`);
}

Deno.test("a hidden answer leaves answerCount everywhere (API, lists, page heading, JSON-LD) and a restore brings it back", async () => {
  const { t, asker, helpers, mod } = await setup();
  try {
    const qid = await ask(t, asker, { title: "Four answers, one hidden", tags: ["counts"] });
    const ids = [];
    for (const [i, h] of helpers.entries()) ids.push(await answer(t, h, qid, `Answer ${i}`));
    await answer(t, asker, qid, "A reply to the first", ids[0]);
    const spam = ids[3];

    await moderate(t, mod, "message", spam, "hide");
    for (const who of [null, asker, helpers[3], mod]) {
      // The hidden answer's author and moderators still see it, with the public counts.
      const q = await question(t, who, qid);
      assert.equal(q.answerCount, 3, `answerCount for ${who?.name ?? "anonymous"}`);
      assert.equal(q.messageCount, 4);
    }
    assert.equal((await question(t, null, qid)).messages.length, 4); // 3 answers + the reply
    const listed = (await feed(t)).questions.find((q) => q.id === qid)!;
    assert.equal(listed.answerCount, 3);
    assert.equal((await feed(t, "?tag=counts")).questions[0].answerCount, 3);
    const { heading, ldAnswers } = await page(t, qid);
    assert.equal(heading, "3 answers · 1 reply");
    assert.equal(ldAnswers, 3);
    await assertClean(t.kv, "after the hide");

    await moderate(t, mod, "message", spam, "restore");
    assert.equal((await question(t, null, qid)).answerCount, 4);
    assert.equal((await feed(t)).questions.find((q) => q.id === qid)!.answerCount, 4);
    assert.deepEqual(await page(t, qid), { heading: "4 answers · 1 reply", ldAnswers: 4 });
    await assertClean(t.kv, "after the restore");

    // Hidden by flags, then deleted by its author: out of every count once, not twice.
    for (const who of [asker, helpers[0], helpers[1]]) {
      const res = await postAs(t, who, "/api/flags", {
        targetType: "message",
        targetId: spam,
        reason: "spam",
      });
      assert.equal(res.status, 200);
    }
    assert.equal((await question(t, null, qid)).answerCount, 3);
    const del = await sendAs(t, helpers[3], "DELETE", `/api/messages/${spam}`);
    assert.equal(del.status, 200, await del.text());
    const after = await question(t, null, qid);
    assert.equal(after.answerCount, 3);
    assert.equal(after.messageCount, 4);
    assert.equal((await question(t, mod, qid)).answerCount, 3);
    await assertClean(t.kv, "after the delete of a hidden answer");
  } finally {
    await t.close();
  }
});

Deno.test("a hidden message of the AI expert panel leaves the page's counts (replies heading, JSON-LD) and comes back", async () => {
  const fake = startFakeLlm();
  const t = await createTestApp({
    env: { ...fake.env, NEW_ACCOUNT_HOURS: "0", EXPERT_PANEL_PER_DAY: "50" },
  });
  try {
    const [asker, helper, mod] = await Promise.all(
      ["Asker", "Helper", "Mo"].map((n) => member(t, n)),
    );
    t.services.config.moderators = [mod.id];
    const qid = await ask(t, asker, { title: "What do the experts say about hiding" });
    const mine = await answer(t, helper, qid, "A person's answer.");
    await answer(t, asker, qid, "A person's reply.", mine);
    await waitForJobs(undefined, "panel");
    const api = await json<{ messages: { id: string; authorType: string; replyTo?: string }[] }>(
      getAs(t, null, `/api/questions/${qid}`),
    );
    const experts = api.body.messages.filter((m) => m.authorType === "ai" && !m.replyTo);
    assert.ok(experts.length >= 2, "the panel answered");
    const before = await page(t, qid);
    assert.equal(before.heading, "1 answer · 1 reply");
    assert.equal(before.ldAnswers, 1 + experts.length);

    await moderate(t, mod, "message", experts[0].id, "hide");
    // One fewer answer listed; people's answers and replies unchanged.
    assert.deepEqual(await page(t, qid), {
      heading: "1 answer · 1 reply",
      ldAnswers: experts.length,
    });
    await assertClean(t.kv, "after hiding an expert's message");
    await moderate(t, mod, "message", experts[0].id, "restore");
    assert.deepEqual(await page(t, qid), before);
    await assertClean(t.kv, "after restoring it");
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a hidden question leaves the question total and its tags' totals, pages stay full, and a restore puts it back in its place", async () => {
  const { t, asker, mod } = await setup();
  try {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const tags = i === 2 ? ["seo", "hidden-tag-only"] : i === 4 ? ["seo"] : ["other"];
      ids.push(await ask(t, asker, { title: `Question number ${i} here`, tags }));
    }
    const hidden = ids[2];
    await moderate(t, mod, "question", hidden, "hide");

    const all = await feed(t);
    assert.equal(all.total, 4);
    assert.deepEqual(all.questions.map((q) => q.id), [ids[4], ids[3], ids[1], ids[0]]);
    // Pages of 2 stay full across the hidden question's place, and end where they should.
    const p1 = await feed(t, "?limit=2&page=1");
    const p2 = await feed(t, "?limit=2&page=2");
    assert.deepEqual(p1.questions.map((q) => q.id), [ids[4], ids[3]]);
    assert.deepEqual(p2.questions.map((q) => q.id), [ids[1], ids[0]]);
    assert.equal(p1.hasMore, true);
    assert.equal(p2.hasMore, false);
    assert.equal((await feed(t, "?limit=4")).hasMore, false);
    const seo = await feed(t, "?tag=seo");
    assert.equal(seo.total, 1);
    assert.deepEqual(seo.questions.map((q) => q.id), [ids[4]]);
    assert.equal((await feed(t, "?tag=hidden-tag-only")).total, 0);
    assert.equal(await matchCount(t, "/?tag=seo"), "1 question matches");
    assert.equal(await matchCount(t, "/?tag=hidden-tag-only"), "No questions match");
    const feedTotal = await json<{ total: number }>(getAs(t, null, "/api/feed"));
    assert.equal(feedTotal.body.total, 4);
    // The author still opens it (with its banner); the counts are the public ones.
    assert.equal((await getAs(t, asker, `/api/questions/${hidden}`)).status, 200);
    await assertClean(t.kv, "after the hide");

    await moderate(t, mod, "question", hidden, "restore");
    const back = await feed(t);
    assert.equal(back.total, 5);
    assert.deepEqual(back.questions.map((q) => q.id), [...ids].reverse());
    assert.equal((await feed(t, "?tag=seo")).total, 2);
    assert.equal(await matchCount(t, "/?tag=seo"), "2 questions match");
    assert.equal(await matchCount(t, "/?tag=hidden-tag-only"), "1 question matches");
    await assertClean(t.kv, "after the restore");

    // Hidden again, its tags edited by its author meanwhile: restored into its new tags.
    await moderate(t, mod, "question", hidden, "hide");
    const edit = await sendAs(t, asker, "PATCH", `/api/questions/${hidden}`, {
      tags: ["seo", "added-while-hidden"],
    });
    assert.equal(edit.status, 200, await edit.text());
    assert.equal((await feed(t, "?tag=added-while-hidden")).total, 0);
    assert.equal((await feed(t, "?tag=hidden-tag-only")).total, 0);
    await assertClean(t.kv, "after an edit of a hidden question");
    await moderate(t, mod, "question", hidden, "restore");
    assert.deepEqual(
      (await feed(t, "?tag=added-while-hidden")).questions.map((q) => q.id),
      [hidden],
    );
    assert.equal((await feed(t, "?tag=hidden-tag-only")).total, 0);
    assert.equal((await feed(t, "?tag=seo")).total, 2);
    await assertClean(t.kv, "after the restore of an edited question");

    // Hidden, then deleted: the totals move once.
    await moderate(t, mod, "question", hidden, "hide");
    await moderate(t, mod, "question", hidden, "delete");
    assert.equal((await feed(t)).total, 4);
    assert.equal((await feed(t, "?tag=seo")).total, 1);
    assert.equal((await feed(t, "?limit=2&page=2")).questions.length, 2);
    const stats = await json<{ questionsCount: number }>(getAs(t, asker, "/api/profile/stats"));
    assert.equal(stats.status, 200);
    assert.equal(stats.body.questionsCount, 4);
    await assertClean(t.kv, "after the delete of a hidden question");
  } finally {
    await t.close();
  }
});

Deno.test("a hidden accepted answer: the question reads as not accepted (similar, unanswered) until the restore accepts it again", async () => {
  const { t, asker, helpers, mod } = await setup();
  try {
    const qid = await ask(t, asker, { title: "Which accepted answer survives a hide" });
    const good = await answer(t, helpers[0], qid, "The answer that solved it.");
    const accept = (messageId: string | null) =>
      postAs(t, asker, `/api/questions/${qid}/accept`, { messageId });
    assert.equal((await accept(good)).status, 200);

    await moderate(t, mod, "message", good, "hide");
    for (const who of [null, asker, helpers[0], mod]) {
      assert.equal((await question(t, who, qid)).acceptedMessageId, null);
    }
    const similar = await json<{ questions: { id: string; accepted: boolean }[] }>(
      getAs(t, null, `/api/questions/similar?title=${encodeURIComponent("accepted answer hide")}`),
    );
    assert.equal(similar.body.questions.find((q) => q.id === qid)?.accepted, false);
    const unanswered = await feed(t, "?filter=unanswered");
    assert.deepEqual(unanswered.questions.map((q) => q.id), [qid]);
    // Nor can the hidden answer be accepted meanwhile.
    assert.equal((await accept(good)).status, 404);
    await assertClean(t.kv, "after hiding the accepted answer");

    await moderate(t, mod, "message", good, "restore");
    assert.equal((await question(t, null, qid)).acceptedMessageId, good);
    assert.deepEqual((await feed(t, "?filter=unanswered")).questions, []);
    await assertClean(t.kv, "after restoring it");

    // The asker's newer choice stands over the accept set aside.
    const other = await answer(t, helpers[1], qid, "Another way that also works.");
    await moderate(t, mod, "message", good, "hide");
    assert.equal((await accept(other)).status, 200);
    await moderate(t, mod, "message", good, "restore");
    assert.equal((await question(t, null, qid)).acceptedMessageId, other);
    await assertClean(t.kv, "after a newer accept");

    // A hidden accepted answer deleted: nothing is left set aside to come back.
    assert.equal((await accept(good)).status, 200);
    await moderate(t, mod, "message", good, "hide");
    await moderate(t, mod, "message", good, "delete");
    assert.equal((await question(t, null, qid)).acceptedMessageId, null);
    assert.equal((await t.kv.get(keys.hiddenAcceptedAnswer(qid))).versionstamp, null);
    await assertClean(t.kv, "after deleting the hidden accepted answer");
  } finally {
    await t.close();
  }
});

Deno.test("fsck --repair brings a store whose posts were hidden before hides moved the counts in line", async () => {
  const { t, asker, helpers, mod } = await setup();
  try {
    const qid = await ask(t, asker, { title: "Hidden the old way", tags: ["legacy"] });
    const kept = await ask(t, asker, { title: "Still shown", tags: ["legacy"] });
    const a1 = await answer(t, helpers[0], kept, "Accepted, then hidden the old way.");
    await answer(t, helpers[1], kept, "A second answer.");
    assert.equal(
      (await postAs(t, asker, `/api/questions/${kept}/accept`, { messageId: a1 })).status,
      200,
    );
    // What a hide wrote before: the marks and the hidden-message counter, nothing else.
    const now = Date.now();
    const record = (await t.kv.get<QuestionRecord>(keys.question(qid))).value!;
    const m = (await t.kv.get<MessageRecord>(keys.message(a1))).value!;
    await commit(t.kv, (op) => {
      op.set(keys.question(qid), { ...record, hiddenAt: now })
        .set(keys.hiddenPost("question", qid), { at: now, by: mod.id })
        .set(keys.message(a1), { ...m, hiddenAt: now })
        .set(keys.hiddenPost("message", a1), { at: now, by: mod.id });
      addToCounter(op, keys.hiddenMessageCount(kept), 1);
    });
    const found = await check(t.kv);
    assert.ok(found.problems > 0, "the old counts are reported");
    await repairClean(t.kv);
    assert.equal((await feed(t)).total, 1);
    assert.equal((await feed(t, "?tag=legacy")).total, 1);
    const q = await question(t, null, kept);
    assert.equal(q.answerCount, 1);
    assert.equal(q.acceptedMessageId, null);
    // And the app's restores then agree with a clean store.
    await moderate(t, mod, "question", qid, "restore");
    await moderate(t, mod, "message", a1, "restore");
    assert.equal((await feed(t)).total, 2);
    assert.equal((await feed(t, "?tag=legacy")).total, 2);
    const restored = await question(t, null, kept);
    assert.equal(restored.answerCount, 2);
    assert.equal(restored.acceptedMessageId, a1);
    await assertClean(t.kv, "after the restores");
  } finally {
    await t.close();
  }
});

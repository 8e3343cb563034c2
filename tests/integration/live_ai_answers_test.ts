/**
 * Answers written by the AI avatar and by the expert panel reach an open question page:
 * `GET /api/questions/:id/events` answers `event: changed` with the new `messageCount`
 * (both write through `addMessage`, which moves the question's version in the message's
 * own op). Each stream is open, and its first event read, before the answer is written,
 * so what follows is the stream hearing of the write, not a fresh read.
 */
import assert from "node:assert/strict";
import { runAvatarTick } from "@/lib/avatar/tick.ts";
import { keys } from "@/lib/kv/keys.ts";
import { saveSettings } from "@/lib/profile/settings.ts";
import { createTestApp } from "../helpers/app.ts";
import { ask, getAs, json, member, postAs } from "../helpers/community.ts";
import { type FakeCall, type FakeReply, startFakeLlm } from "../helpers/fake_llm.ts";
import { type SseEvent, sseReader } from "../helpers/sse.ts";

const T0 = Date.UTC(2030, 0, 1, 9, 0, 0);
const S = 1000;

interface Inbox {
  notifications: { type: string; actor: { id: string } | null; messageId: string | null }[];
  unread: number;
}

/** Events of `stream` until `messageCount` reaches `n` (the last one included). */
async function changesUntil(stream: ReturnType<typeof sseReader>, n: number) {
  const seen: SseEvent[] = [];
  for (;;) {
    const e = await stream.next();
    assert.ok(e, `the stream ended before messageCount ${n}`);
    seen.push(e);
    if (e.data.messageCount >= n) return seen;
  }
}

Deno.test("an AI avatar's answer reaches the open question page's event stream", async () => {
  const llm = startFakeLlm(() => ({
    text: "From experience: check the tide tables first, then the wind, then your crew.",
  }));
  const clock = { t: T0 };
  const t = await createTestApp({ env: llm.env, now: () => clock.t });
  try {
    const [asker, owner] = [await member(t, "Asker"), await member(t, "Ada")];
    await saveSettings(t.kv, owner.id, { aiAvatar: true });
    const qid = await ask(t, asker, { title: "When is the best tide to sail?" });

    const res = await getAs(t, null, `/api/questions/${qid}/events`);
    assert.equal(res.status, 200);
    const stream = sseReader(res, { resumable: true });
    let answerId: string;
    try {
      assert.deepEqual(await stream.next(), {
        type: "changed",
        data: { messageCount: 0, upvotes: 0, downvotes: 0 },
      });
      // 90 s later the question is old enough for the avatar (docs/interface.md#ai-avatar: 60 s).
      clock.t = T0 + 90 * S;
      const tick = await runAvatarTick(t.services, clock.t);
      assert.deepEqual(tick.answers.map((a) => [a.userId, a.questionId]), [[owner.id, qid]]);
      answerId = tick.answers[0].messageId;
      const seen = await changesUntil(stream, 1);
      assert.deepEqual(seen, [{
        type: "changed",
        data: { messageCount: 1, upvotes: 0, downvotes: 0 },
      }]);
    } finally {
      await stream.close();
    }

    // Like any answer, it tells the asker (who follows their question); the owner, who
    // never saw the question, does not start following it.
    const inbox = (await json<Inbox>(getAs(t, asker, "/api/notifications"))).body;
    assert.equal(inbox.unread, 1);
    assert.deepEqual(
      inbox.notifications.map((n) => [n.type, n.actor?.id, n.messageId]),
      [["answer", owner.id, answerId]],
    );
    assert.equal((await t.kv.get(keys.follow(qid, owner.id))).value, null);
  } finally {
    await t.close();
    await llm.close();
  }
});

Deno.test("the expert panel's answers reach the open question page's event stream", async () => {
  // The experts answer only once the page's stream is open.
  let open!: () => void;
  const streamOpen = new Promise<void>((resolve) => (open = resolve));
  const llm = startFakeLlm(async (call: FakeCall): Promise<FakeReply> => {
    const prompt = call.messages.map((m) => m.content).join("\n");
    if (prompt.includes("Pick the 3 experts")) return { text: '{"experts":["omar","ada","mei"]}' };
    await streamOpen;
    const who = /You are ([^,]+),/.exec(prompt)?.[1] ?? "An expert";
    return { text: `${who} would measure first, then change one thing at a time.` };
  });
  const t = await createTestApp({ env: { ...llm.env, EXPERT_PANEL_PER_DAY: "5" } });
  try {
    const asker = await member(t, "Asker");
    const created = await postAs(t, asker, "/api/questions", {
      title: "How should I tune a slow database?",
      panel: true,
    });
    assert.equal(created.status, 201);
    const qid = ((await created.json()) as { id: string }).id;

    const res = await getAs(t, null, `/api/questions/${qid}/events`);
    assert.equal(res.status, 200);
    const stream = sseReader(res, { resumable: true });
    let seen: SseEvent[];
    try {
      assert.deepEqual((await stream.next())?.data, { messageCount: 0, upvotes: 0, downvotes: 0 });
      open();
      // 3 experts × 2 rounds; changes that land together may arrive as one event.
      seen = await changesUntil(stream, 6);
    } finally {
      await stream.close();
    }
    assert.ok(seen.every((e) => e.type === "changed"));
    const counts = seen.map((e) => e.data.messageCount);
    assert.deepEqual(counts, [...counts].sort((a, b) => a - b), "counts only grow");
    assert.equal(new Set(counts).size, counts.length, "every event reports a new count");
    assert.equal(counts.at(-1), 6);

    const { body: q } = await json<{ messages: { authorType: string }[] }>(
      t.request(`/api/questions/${qid}`),
    );
    assert.equal(q.messages.filter((m) => m.authorType === "ai").length, 6);
    // Experts notify nobody: the asker follows the panel live on the page.
    const inbox = (await json<Inbox>(getAs(t, asker, "/api/notifications"))).body;
    assert.equal(inbox.unread, 0);
  } finally {
    await t.close();
    await llm.close();
  }
});

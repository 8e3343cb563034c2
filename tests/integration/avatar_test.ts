/**
 * The AI avatar job, driven tick by tick with a controllable clock (no timers): the
 * 30 s interval, the 60 s minimum question age, the hourly cap of 10, no duplicate
 * answers, two instances sharing one KV file, users with the avatar off, the bio as
 * personality, and the job's own timer stopping cleanly.
 */
import assert from "node:assert/strict";
import { answerAsAvatar, type AvatarOwner } from "@/lib/avatar/answer.ts";
import { AVATAR_JOB, avatarJobKind } from "@/lib/avatar/job.ts";
import { JobRunner, PERIODIC_ID } from "@/lib/jobs/runner.ts";
import { runAvatarTick } from "@/lib/avatar/tick.ts";
import { keys } from "@/lib/kv/keys.ts";
import { listThread } from "@/lib/community/messages/read.ts";
import type { MessageRecord } from "@/lib/community/messages/model.ts";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { getQuestion } from "@/lib/community/questions/read.ts";
import { type QuestionRecord } from "@/lib/community/questions/model.ts";
import { DEFAULT_SETTINGS, saveSettings } from "@/lib/profile/settings.ts";
import { readUserStats } from "@/lib/profile/user_stats.ts";
import { createUser, type User } from "@/lib/auth/users.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { ask, getAs, member } from "../helpers/community.ts";
import { type FakeCall, type FakeReply, startFakeLlm } from "../helpers/fake_llm.ts";

const T0 = Date.UTC(2030, 0, 1, 9, 0, 0);
const S = 1000;

function clock(start = T0) {
  const c = { t: start, now: () => c.t };
  return c;
}

/** A user with a bio, and (optionally) the AI avatar turned on. */
async function person(t: TestApp, name: string, bio: string, avatar: boolean): Promise<User> {
  const user = await createUser(t.kv, {
    provider: "provider_a",
    name,
    image: null,
    bio,
    email: null,
  }, t.services.now());
  if (avatar) await setAvatar(t, user.id, true);
  return user;
}

/** Turn the avatar on or off through the settings write (which keeps the roster in step). */
async function setAvatar(t: TestApp, userId: string, on: boolean) {
  await saveSettings(t.kv, userId, { aiAvatar: on });
}

/** A roster entry left behind with the setting off (e.g. by a crash between writes). */
async function staleRosterEntry(t: TestApp, userId: string) {
  await t.kv.atomic()
    .set(keys.settings(userId), { ...DEFAULT_SETTINGS, aiAvatar: false })
    .set(keys.avatarRoster(userId), true)
    .commit();
}

async function question(t: TestApp, author: User, title: string, at: number) {
  return await createQuestion(t.kv, {
    title,
    description: `About ${title.toLowerCase()}`,
    author: { id: author.id, name: author.name, avatar: null },
    createdBy: "user",
  }, { now: at });
}

/** Every avatar answer in KV, as `userId → questionId[]`. */
async function avatarAnswers(t: TestApp, questions: QuestionRecord[]) {
  const out = new Map<string, string[]>();
  for (const q of questions) {
    for (const m of await listThread(t.kv, q.id)) {
      if (m.via !== "ai-avatar") continue;
      out.set(m.author.id, [...(out.get(m.author.id) ?? []), q.id]);
    }
  }
  return out;
}

function avatarModel(reply?: (call: FakeCall) => FakeReply) {
  return startFakeLlm(
    reply ?? ((call) => ({
      text: `Answer ${call.index}: from experience, tide tables and patience beat guesswork here.`,
    })),
  );
}

Deno.test("a tick answers questions older than 60 s, as the user, with their bio as personality", async () => {
  const fake = avatarModel();
  const c = clock();
  const t = await createTestApp({ env: fake.env, now: c.now });
  try {
    const ada = await person(t, "Ada", "Retired ferry captain who loves tide tables.", true);
    const bob = await person(t, "Bob", "", false);
    const mine = await question(t, ada, "Ada's own question", T0);
    const theirs = await question(t, bob, "When is the best tide to sail?", T0);

    // 59 s old: too young. (That tick ran, so the next one waits 30 s.)
    let r = await runAvatarTick(t.services, T0 + 59 * S);
    assert.equal(r.ran, true);
    assert.deepEqual(r.answers, []);
    assert.equal(fake.calls.length, 0);

    r = await runAvatarTick(t.services, T0 + 89 * S);
    assert.deepEqual(r.answers.map((a) => [a.userId, a.questionId]), [[ada.id, theirs.id]]);
    const [m] = await listThread(t.kv, theirs.id);
    assert.match(m.id, /^msg-agent-reply-[a-z0-9]+$/);
    assert.equal(m.authorType, "user");
    assert.equal(m.createdBy, "agent");
    assert.equal(m.via, "ai-avatar");
    assert.deepEqual(m.author, { id: ada.id, name: "Ada", avatar: "" });
    assert.equal(m.replyTo, undefined);
    assert.equal(m.createdAt, T0 + 89 * S);
    assert.match(m.content, /^Answer 0: from experience/);
    assert.equal(m.standIn, undefined, "a real (fake) model, not the stand-in");
    // The bio is the personality; the question is in the prompt.
    const prompt = fake.calls[0].messages;
    assert.match(prompt[0].content, /Personality \(Ada's own bio\): Retired ferry captain/);
    assert.match(prompt[1].content, /Topic: When is the best tide to sail\?/);
    // Counted like any answer; never on the user's own question.
    assert.equal((await readUserStats(t.kv, ada.id)).answers, 1);
    assert.deepEqual(await listThread(t.kv, mine.id), []);

    // The question page shows it as written by Ada's AI avatar.
    const html = await (await getAs(t, null, `/questions/${theirs.id}`)).text();
    assert.match(html, /data-testid="badge-ai-avatar"[^>]*>AI avatar</);
    assert.match(html, /Written by Ada&#39;s AI avatar|Written by Ada's AI avatar/);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("interval: a second tick within 30 s does nothing; at 30 s it runs", async () => {
  const fake = avatarModel();
  const t = await createTestApp({ env: fake.env });
  try {
    const ada = await person(t, "Ada", "Gardener.", true);
    const bob = await person(t, "Bob", "", false);
    const qs = [await question(t, bob, "First", T0), await question(t, bob, "Second", T0)];
    const first = await runAvatarTick(t.services, T0 + 120 * S);
    assert.equal(first.answers.length, 1, "one answer per user per tick");
    for (const later of [1, 10, 28]) {
      const r = await runAvatarTick(t.services, T0 + (120 + later) * S);
      assert.deepEqual([r.ran, r.refused, r.answers.length], [false, "too_soon", 0], `+${later}s`);
    }
    const again = await runAvatarTick(t.services, T0 + 150 * S);
    assert.equal(again.answers.length, 1);
    assert.equal(fake.calls.length, 2);
    assert.deepEqual((await avatarAnswers(t, qs)).get(ada.id)?.sort(), qs.map((q) => q.id).sort());
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("interval: a tick configured for a shorter period runs at that period", async () => {
  const fake = avatarModel();
  const t = await createTestApp({ env: fake.env });
  try {
    await person(t, "Ada", "Gardener.", true);
    const bob = await person(t, "Bob", "", false);
    await question(t, bob, "First", T0);
    await question(t, bob, "Second", T0);
    const every = { intervalMs: 5 * S };
    assert.equal((await runAvatarTick(t.services, T0 + 120 * S, every)).answers.length, 1);
    assert.equal((await runAvatarTick(t.services, T0 + 122 * S, every)).refused, "too_soon");
    assert.equal((await runAvatarTick(t.services, T0 + 125 * S, every)).answers.length, 1);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("no duplicates: each question is answered once per user, however many ticks run", async () => {
  const fake = avatarModel();
  const t = await createTestApp({ env: fake.env });
  try {
    const ada = await person(t, "Ada", "Gardener.", true);
    const cat = await person(t, "Cat", "Chemist.", true);
    const bob = await person(t, "Bob", "", false);
    const qs = [
      await question(t, bob, "One", T0),
      await question(t, bob, "Two", T0),
      await question(t, ada, "Three", T0),
    ];
    let at = T0 + 120 * S;
    for (let i = 0; i < 6; i++, at += 30 * S) await runAvatarTick(t.services, at);
    const answers = await avatarAnswers(t, qs);
    assert.deepEqual(answers.get(ada.id)?.sort(), [qs[0].id, qs[1].id].sort());
    assert.deepEqual(answers.get(cat.id)?.sort(), qs.map((q) => q.id).sort());
    const calls = fake.calls.length;
    const idle = await runAvatarTick(t.services, at);
    assert.deepEqual(idle.answers, []);
    assert.deepEqual(idle.skipped.map((s) => s.reason), ["nothing_to_answer", "nothing_to_answer"]);
    assert.equal(fake.calls.length, calls, "no model call when there is nothing to answer");
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("hourly cap: ten answers per hour per user; the 11th waits until the hour has passed", async () => {
  const fake = avatarModel();
  const t = await createTestApp({ env: fake.env });
  try {
    const ada = await person(t, "Ada", "Gardener.", true);
    const bob = await person(t, "Bob", "", false);
    const qs: QuestionRecord[] = [];
    for (let i = 0; i < 12; i++) qs.push(await question(t, bob, `Question ${i + 1}`, T0));
    const start = T0 + 120 * S;
    // One answer per tick: ten ticks, ten answers.
    for (let i = 0; i < 10; i++) {
      const r = await runAvatarTick(t.services, start + i * 30 * S);
      assert.equal(r.answers.length, 1, `tick ${i + 1}`);
    }
    const eleventh = await runAvatarTick(t.services, start + 10 * 30 * S);
    assert.deepEqual(eleventh.answers, []);
    assert.deepEqual(eleventh.skipped, [{ userId: ada.id, reason: "hourly_cap" }]);
    const justBefore = await runAvatarTick(t.services, start + 3_600_000 - 1);
    assert.deepEqual(justBefore.skipped, [{ userId: ada.id, reason: "hourly_cap" }]);
    assert.equal(fake.calls.length, 10, "a capped user costs no model call");
    // An hour after the first answer, one slot is free again.
    const after = await runAvatarTick(t.services, start + 3_600_000 + 30 * S - 1);
    assert.equal(after.answers.length, 1);
    assert.equal((await avatarAnswers(t, qs)).get(ada.id)?.length, 11);

    // Even many answers allowed per tick stop at the cap.
    const cat = await person(t, "Cat", "Chemist.", true);
    const many = await runAvatarTick(t.services, start + 3_600_000 + 60 * S, {
      perUserPerTick: 50,
    });
    assert.equal(many.answers.filter((a) => a.userId === cat.id).length, 10);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("users with the AI avatar off are skipped, even when still on the roster", async () => {
  const fake = avatarModel();
  const t = await createTestApp({ env: fake.env });
  try {
    const ada = await person(t, "Ada", "Gardener.", true);
    const bob = await person(t, "Bob", "", false);
    await staleRosterEntry(t, bob.id); // the setting wins over the roster
    const q = await question(t, ada, "Anyone?", T0);
    const q2 = await question(t, ada, "Anyone else?", T0);
    const cat = await person(t, "Cat", "", true);
    const r = await runAvatarTick(t.services, T0 + 120 * S);
    assert.deepEqual(r.skipped.find((s) => s.userId === bob.id)?.reason, "ai_avatar_off");
    assert.deepEqual(r.answers.map((a) => a.userId), [cat.id]);
    await setAvatar(t, cat.id, false);
    const later = await runAvatarTick(t.services, T0 + 150 * S);
    assert.deepEqual(later.answers, []);
    assert.equal((await avatarAnswers(t, [q, q2])).get(cat.id)?.length, 1);
    assert.equal((await avatarAnswers(t, [q, q2])).get(bob.id), undefined);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a failing model writes nothing; the question is answered on a later tick", async () => {
  let failing = true;
  const fake = avatarModel(() =>
    failing ? { status: 500 } : { text: "Second time lucky, with tide tables." }
  );
  const t = await createTestApp({ env: fake.env, llmTimeoutMs: 2_000 });
  try {
    await person(t, "Ada", "Gardener.", true);
    const bob = await person(t, "Bob", "", false);
    const q = await question(t, bob, "Will it work?", T0);
    const r = await runAvatarTick(t.services, T0 + 120 * S);
    assert.deepEqual(r.skipped.map((s) => s.reason), ["model_failed"]);
    assert.deepEqual(await listThread(t.kv, q.id), []);
    failing = false;
    const again = await runAvatarTick(t.services, T0 + 150 * S);
    assert.equal(again.answers.length, 1);
    assert.equal((await listThread(t.kv, q.id)).length, 1);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("two instances sharing one KV file, ticking at once, answer each question once", async () => {
  const dir = await Deno.makeTempDir();
  // Slow answers make the two instances' ticks overlap.
  const fake = avatarModel((call) => ({ text: `Overlapping answer ${call.index}.`, delayMs: 50 }));
  const c = clock();
  const one = await createTestApp({ env: fake.env, kvPath: `${dir}/shared.kv`, now: c.now });
  const two = await createTestApp({ env: fake.env, kvPath: `${dir}/shared.kv`, now: c.now });
  try {
    const ada = await person(one, "Ada", "Gardener.", true);
    const cat = await person(one, "Cat", "Chemist.", true);
    const bob = await person(one, "Bob", "", false);
    const qs: QuestionRecord[] = [];
    for (let i = 0; i < 3; i++) qs.push(await question(one, bob, `Shared ${i}`, T0));

    let at = T0 + 120 * S;
    for (let round = 0; round < 5; round++, at += 30 * S) {
      const [a, b] = await Promise.all([
        runAvatarTick(one.services, at),
        runAvatarTick(two.services, at),
      ]);
      assert.equal(Number(a.ran) + Number(b.ran), 1, `round ${round}: exactly one tick ran`);
    }
    const answers = await avatarAnswers(two, qs);
    for (const user of [ada, cat]) {
      const got = answers.get(user.id) ?? [];
      assert.deepEqual(got.sort(), qs.map((q) => q.id).sort(), `${user.name}: each once`);
    }

    // Below the lease, the per-question marker: two instances racing on the very same
    // answer (both read "not answered" before either writes) store it once.
    const dan = await person(one, "Dan", "Sailor.", true);
    const q = await question(one, bob, "Race me", T0);
    const owner: AvatarOwner = {
      author: { id: dan.id, name: "Dan", avatar: null },
      bio: "Sailor.",
    };
    const results = await Promise.all([
      answerAsAvatar({ kv: one.kv, llm: one.services.llm! }, owner, q, at),
      answerAsAvatar({ kv: two.kv, llm: two.services.llm! }, owner, q, at),
    ]);
    assert.deepEqual(results.map((r) => r.ok).sort(), [false, true]);
    assert.deepEqual(results.filter((r) => !r.ok).map((r) => !r.ok && r.reason), ["lost_race"]);
    const thread: MessageRecord[] = await listThread(one.kv, q.id);
    assert.equal(thread.filter((m) => m.author.id === dan.id).length, 1);
    assert.equal((await readUserStats(one.kv, dan.id)).answers, 1, "counted once");
    assert.ok(await getQuestion(two.kv, q.id));
  } finally {
    await one.close();
    await two.close();
    await fake.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("local mode: the stand-in model answers for the avatar, and its answer is marked", async () => {
  const t = await createTestApp();
  try {
    const ada = await person(t, "Ada", "Baker who loves sourdough.", true);
    const bob = await member(t, "Bob");
    const qid = await ask(t, bob, { title: "How long should dough rest?" });
    const r = await runAvatarTick(t.services, Date.now() + 120 * S);
    assert.equal(r.answers.length, 1);
    const [m] = await listThread(t.kv, qid);
    assert.equal(m.author.id, ada.id);
    assert.equal(m.standIn, true);
    assert.ok(m.content.length >= 100, m.content);
  } finally {
    await t.close();
  }
});

Deno.test("the avatar runs as a periodic job of the runner: passes tick it, it is rescheduled, and shutdown stops it", async () => {
  const fake = avatarModel();
  const t = await createTestApp({ env: fake.env });
  const runner = new JobRunner(t.kv, { owner: "instance-1" }).register(
    avatarJobKind(t.services, 50),
  );
  try {
    await person(t, "Ada", "Gardener.", true);
    const bob = await person(t, "Bob", "", false);
    const q = await question(t, bob, "Timer?", Date.now() - 120 * S);
    runner.startTimer(20);
    for (let i = 0; i < 500 && (await listThread(t.kv, q.id)).length === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await runner.shutdown();
    await runner.shutdown(); // idempotent
    assert.equal((await listThread(t.kv, q.id)).length, 1);
    const job = (await t.kv.get<{ due: number; owner: string }>(keys.job(AVATAR_JOB, PERIODIC_ID)))
      .value;
    assert.equal(job?.owner, "instance-1");
    assert.ok(job && job.due > 0, "the next tick is scheduled");
    assert.equal(runner.running(), 0);
  } finally {
    await runner.shutdown();
    await t.close();
    await fake.close();
  }
});

Deno.test("shutting the runner down cancels the avatar's model call in flight and writes nothing", async () => {
  const fake = avatarModel(() => ({ hang: true }));
  // A deadline far beyond the test: only the job's own cancellation can end the call.
  const t = await createTestApp({ env: fake.env, llmTimeoutMs: 600_000 });
  const runner = new JobRunner(t.kv).register(avatarJobKind(t.services, 50));
  try {
    await person(t, "Ada", "Gardener.", true);
    const bob = await person(t, "Bob", "", false);
    const q = await question(t, bob, "Hanging?", Date.now() - 120 * S);
    await runner.pass();
    for (let i = 0; i < 500 && fake.calls.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(fake.calls.length, 1, "the tick is waiting on the model");
    await runner.shutdown();
    assert.equal(runner.running(), 0, "the run ended");
    assert.deepEqual(await listThread(t.kv, q.id), []);
    assert.equal((await t.kv.get(keys.avatarAnswered((await listRoster(t))[0], q.id))).value, null);
  } finally {
    await t.close();
    await fake.close();
  }
});

async function listRoster(t: TestApp): Promise<string[]> {
  const ids: string[] = [];
  for await (const e of t.kv.list({ prefix: keys.avatarRosterPrefix() })) {
    ids.push(String(e.key[1]));
  }
  return ids;
}

import assert from "node:assert/strict";
import { counterValue } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { JobRunner } from "../jobs/runner.ts";
import { createUser } from "../auth/users.ts";
import { askQuestion } from "../community/questions/write.ts";
import { postMessage } from "../community/messages/write.ts";
import { castVote } from "../community/votes.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import { deleteAccount } from "./delete.ts";
import {
  ACCOUNT_DELETION_JOB,
  type AccountDeletion,
  accountDeletionJobKind,
} from "./delete_job.ts";
import { settlesWithin } from "../../tests/helpers/jobs.ts";

/** A person with many answers and votes, and someone else's question they answer. */
async function seed(kv: Deno.Kv, answers: number) {
  const ada = await createUser(kv, {
    provider: "provider_a",
    name: "Ada Many",
    image: null,
    bio: "",
    email: null,
  });
  const bob = await createUser(kv, {
    provider: "provider_a",
    name: "Bob",
    image: null,
    bio: "",
    email: null,
  });
  const asked = await askQuestion(kv, { userId: bob.id, title: "Busy thread", createdBy: "user" });
  assert.ok(asked.ok);
  const qid = asked.question.id;
  const ids: string[] = [];
  for (let i = 0; i < answers; i++) {
    const r = await postMessage(kv, {
      userId: ada.id,
      questionId: qid,
      content: `answer ${i}`,
      createdBy: "user",
    });
    assert.ok(r.ok);
    ids.push(r.message.id);
    if (i % 2 === 0) {
      const v = await castVote(kv, {
        userId: bob.id,
        targetType: "message",
        targetId: r.message.id,
        voteType: "up",
      });
      assert.ok(v.ok);
    }
  }
  assert.ok(
    (await castVote(kv, {
      userId: ada.id,
      targetType: "question",
      targetId: qid,
      voteType: "up",
    })).ok,
  );
  return { ada, bob, qid, ids };
}

Deno.test("account deletion job: stopped halfway and resumed by another instance, it finishes with every post erased and every count intact", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const { ada, qid, ids } = await seed(kv, 300);
    // The request's part: the account goes, the job is created (nobody here runs it).
    const r = await deleteAccount(kv, { userId: ada.id, confirm: "Ada Many", content: "keep" });
    assert.deepEqual(r, { ok: true, content: "keep" });
    assert.equal((await kv.get(keys.user(ada.id))).value, null);
    // Instance B claims the job once its creator's lease lapsed, and is stopped as soon as
    // it recorded a first batch.
    const later = Date.now() + 60_000;
    const b = new JobRunner(kv, { owner: "b", now: () => later });
    b.register(accountDeletionJobKind(() => later));
    const progress = kv.watch([keys.accountDeletion(ada.id)]).getReader();
    assert.deepEqual(await b.pass(), [`${ACCOUNT_DELETION_JOB}/${ada.id}`]);
    for (;;) {
      const [e] = (await settlesWithin(progress.read(), "a first batch")).value!;
      const s = e.value as AccountDeletion | null;
      if (!s || Object.keys(s.done).length > 0) break;
    }
    await progress.cancel();
    await b.shutdown(5_000);
    const mid = (await kv.get<AccountDeletion>(keys.accountDeletion(ada.id))).value;
    // Instance C resumes the released job and finishes it.
    const c = new JobRunner(kv, { owner: "c", now: () => later + 1 });
    c.register(accountDeletionJobKind(() => later + 1));
    assert.ok(mid, "stopped before the end");
    assert.deepEqual(await c.pass(), [`${ACCOUNT_DELETION_JOB}/${ada.id}`]);
    await settlesWithin(c.waitIdle(30_000), "the resumed job", 35_000);
    await c.shutdown(0);

    assert.equal((await kv.get(keys.accountDeletion(ada.id))).value, null, "finished");
    assert.equal((await kv.get(keys.job(ACCOUNT_DELETION_JOB, ada.id))).value, null);
    const messages = await kv.getMany<MessageRecord[]>(ids.slice(0, 10).map(keys.message));
    for (const m of messages) {
      assert.deepEqual(m.value!.author, { id: "", name: "deleted user", avatar: "" });
    }
    let erased = 0;
    for (let i = 0; i < ids.length; i += 10) {
      const got = await kv.getMany<MessageRecord[]>(ids.slice(i, i + 10).map(keys.message));
      erased += got.filter((m) => m.value?.author.id === "").length;
    }
    assert.equal(erased, ids.length, "every answer is by deleted user");
    // Counts are as before, and still equal the voter entries.
    for (const id of ids.slice(0, 6)) {
      const up = counterValue((await kv.get(keys.voteCount("message", id, "up"))).value);
      const voters = await Array.fromAsync(kv.list({ prefix: keys.votesPrefix("message", id) }));
      assert.equal(voters.length, up, id);
    }
    const qVoters = await Array.fromAsync(kv.list({ prefix: keys.votesPrefix("question", qid) }));
    assert.equal(qVoters.length, 1);
    assert.match(String(qVoters[0].key[3]), /^anon_/);
    // Nothing is left under her id but the tombstone — and Bob's notifications of her
    // answers, whose stored actor every reader shows as "deleted user".
    const left: string[] = [];
    for await (const e of kv.list({ prefix: [] })) {
      if (e.key[0] === "notifications" && e.key[1] !== ada.id) continue;
      if (
        e.key.includes(ada.id) ||
        JSON.stringify(e.value ?? null, (_k, v) => typeof v === "bigint" ? "" : v)?.includes(ada.id)
      ) {
        left.push(JSON.stringify(e.key));
      }
    }
    assert.deepEqual(left, [JSON.stringify(["deleted_users", ada.id])]);
  } finally {
    kv.close();
  }
});

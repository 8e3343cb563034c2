/**
 * The issue's end-to-end case: a store is backed up (lib/ops/backup.ts) while 20 members
 * post and vote through HTTP, so the backup holds some atomic ops only in part; the file
 * is restored into a new store with `deno task restore`, `deno task fsck` finds what the
 * torn ops left, `deno task fsck --repair` fixes it, and then every write acknowledged
 * before the backup began is there, the check is clean, and the restored app keeps
 * numbering new questions without writing over old ones.
 *
 * The backup reads the store in pages of 10 (its own code, smaller pages) and stops once
 * on its way, on reaching the question records, until the writers have had questions,
 * answers and votes acknowledged: those ops' keys before that point are not in the file
 * and their keys after it are. A backup of a busy store tears ops the same way, only
 * less predictably.
 */
import assert from "node:assert/strict";
import { counterValue } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import { voteOf } from "@/lib/community/vote_rows.ts";
import { backupStore } from "@/lib/ops/backup.ts";
import { compareKeys } from "@/lib/ops/fsck/key_order.ts";
import { runFsck } from "@/lib/ops/fsck/run.ts";
import { userStatProblem } from "@/lib/ops/fsck/user_stats.ts";
import { createTestApp, ROOT, type TestApp } from "../helpers/app.ts";
import { type Member, member, postAs } from "../helpers/community.ts";

const tmp = await Deno.makeTempDir({ prefix: "parley-fsck-backup-" });
globalThis.addEventListener("unload", () => Deno.removeSync(tmp, { recursive: true }));

const ENV = {
  // The writers post far faster than any person: no posting limits, no new-account rules.
  LIMIT_QUESTIONS_PER_HOUR: "0",
  LIMIT_MESSAGES_PER_HOUR: "0",
  LIMIT_VOTES_PER_HOUR: "0",
  NEW_ACCOUNT_HOURS: "0",
};

/** Run `deno run -A scripts/<script>.ts <args>` on the store at `kvPath`. */
async function task(script: string, args: string[], kvPath: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `scripts/${script}.ts`, ...args],
    cwd: ROOT,
    env: { KV_PATH: kvPath },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** An acknowledged write and whether it was acknowledged before the backup began. */
type Ack =
  | { kind: "question"; id: string; title: string; before: boolean }
  | { kind: "answer"; id: string; questionId: string; before: boolean }
  | {
    kind: "vote";
    targetType: "question" | "message";
    targetId: string;
    userId: string;
    voteType: "up" | "down";
    before: boolean;
  };

/** The shared state of the writers. */
interface Writers {
  acks: Ack[];
  /** Posts anyone may vote on or answer: [type, id, author]. */
  posts: { type: "question" | "message"; id: string; questionId: string; author: string }[];
  backupStarted: boolean;
  stop: boolean;
}

function pick<T>(list: T[]): T | undefined {
  return list[Math.floor(Math.random() * list.length)];
}

/** One writer: ask, answer or vote through HTTP until told to stop. */
async function writer(t: TestApp, me: Member, w: Writers, n: number): Promise<void> {
  const voted = new Set<string>();
  for (let i = 0; !w.stop; i++) {
    // A member's pace, not a load test's: the store stays small enough to walk quickly.
    await new Promise((r) => setTimeout(r, 10 + Math.random() * 30));
    const before = !w.backupStarted;
    const roll = Math.random();
    if (roll < 0.25 || w.posts.length < 5) {
      const title = `Writer ${n} asks question ${i} about torn backups`;
      const res = await postAs(t, me, "/api/questions", {
        title,
        description: "Posted while a backup runs.",
        tags: [`tag${n % 4}`, "backup"],
      });
      assert.equal(res.status, 201, await res.clone().text());
      const { id } = await res.json();
      w.acks.push({ kind: "question", id, title, before });
      w.posts.push({ type: "question", id, questionId: id, author: me.id });
    } else if (roll < 0.55) {
      const target = pick(w.posts)!;
      const replyTo = target.type === "message" ? target.id : undefined;
      const res = await postAs(t, me, `/api/questions/${target.questionId}/messages`, {
        content: `Writer ${n}, message ${i}`,
        replyTo,
      });
      assert.equal(res.status, 201, await res.clone().text());
      const { id } = await res.json();
      w.acks.push({ kind: "answer", id, questionId: target.questionId, before });
      w.posts.push({ type: "message", id, questionId: target.questionId, author: me.id });
    } else {
      const target = pick(w.posts.filter((p) => p.author !== me.id && !voted.has(p.id)));
      if (!target) continue;
      voted.add(target.id);
      const voteType = Math.random() < 0.7 ? "up" : "down";
      const res = await postAs(t, me, "/api/likes", {
        targetType: target.type,
        targetId: target.id,
        voteType,
      });
      assert.equal(res.status, 200, await res.clone().text());
      w.acks.push({
        kind: "vote",
        targetType: target.type,
        targetId: target.id,
        userId: me.id,
        voteType,
        before,
      });
    }
  }
}

/**
 * `kv` as the backup sees it: its `list` reads pages of 10 and stops once, at the first
 * key at or after `at`, until `pause` resolves.
 */
function pausingStore(kv: Deno.Kv, at: Deno.KvKey, pause: () => Promise<void>): Deno.Kv {
  let paused = false;
  async function* slowly(iter: AsyncIterable<Deno.KvEntry<unknown>>) {
    for await (const e of iter) {
      if (!paused && compareKeys(e.key, at) >= 0) {
        paused = true;
        await pause();
      }
      yield e;
    }
  }
  return new Proxy(kv, {
    get(target, prop) {
      if (prop === "list") {
        return (selector: Deno.KvListSelector, opts: Deno.KvListOptions = {}) =>
          slowly(target.list(selector, { ...opts, batchSize: 10 }));
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/** Resolves once the writers have had `n` more of each kind acknowledged. */
async function moreOfEach(w: Writers, n: number): Promise<void> {
  const count = (kind: Ack["kind"]) => w.acks.filter((a) => a.kind === kind).length;
  const from = { question: count("question"), answer: count("answer"), vote: count("vote") };
  while ((["question", "answer", "vote"] as const).some((k) => count(k) < from[k] + n)) {
    await new Promise((r) => setTimeout(r, 5));
  }
}

Deno.test({
  name:
    "a backup taken while 20 members post and vote restores, repairs to a clean check, and keeps every write acknowledged before it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const source = `${tmp}/source.kv`;
    const t = await createTestApp({ kvPath: source, env: ENV });
    const w: Writers = { acks: [], posts: [], backupStarted: false, stop: false };
    const file = `${tmp}/busy.backup.gz`;
    try {
      const members: Member[] = [];
      for (let i = 0; i < 20; i++) members.push(await member(t, `Writer ${i}`));
      const running = members.map((m, i) => writer(t, m, w, i));
      // Some history first, so the backup has a store to walk while the writers go on.
      while (w.acks.filter((a) => a.kind === "question").length < 40) {
        await new Promise((r) => setTimeout(r, 5));
      }
      w.backupStarted = true;
      const result = await backupStore(
        pausingStore(t.kv, keys.question(""), () => moreOfEach(w, 3)),
        file,
      );
      assert.ok(result.entries > 0);
      await moreOfEach(w, 1); // and a little after it
      w.stop = true;
      await Promise.all(running);
    } finally {
      w.stop = true;
      await t.close();
    }

    const target = `${tmp}/restored.kv`;
    const restored = await task("restore", [file], target);
    assert.equal(restored.code, 0, restored.stderr);

    // The torn ops show: the records of questions asked during the pause came along,
    // their positions (keys before the pause) did not.
    const checked = await task("fsck", [], target);
    assert.equal(checked.code, 1, checked.stdout + checked.stderr);
    assert.match(checked.stdout, /problems\./);
    assert.match(checked.stdout, /questions: \d+ problems?/);
    assert.match(checked.stdout, /live question without its feed positions record: [1-9]/);

    const repaired = await task("fsck", ["--repair"], target);
    assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
    assert.match(repaired.stdout, /Checked again after the repair: clean\./);
    const again = await task("fsck", [], target);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /: clean\./);

    const after = await createTestApp({ kvPath: target, env: ENV });
    try {
      const before = w.acks.filter((a) => a.before);
      assert.ok(before.length >= 40, `${before.length} writes before the backup`);
      await assertKept(after, before);
      // What is served agrees with what is stored: each question's counts are its voters
      // and its thread.
      for (const a of before) {
        if (a.kind !== "question") continue;
        const view = await (await after.request(`/api/questions/${a.id}`)).json();
        let up = 0;
        let down = 0;
        for await (
          const e of after.kv.list({ prefix: keys.votesPrefix("question", a.id) })
        ) voteOf(e.value)?.voteType === "up" ? up++ : down++;
        assert.deepEqual([view.upvotes, view.downvotes], [up, down], `votes of ${a.id}`);
        assert.equal(view.messageCount, view.messages.length, `messages of ${a.id}`);
      }
      // A new question after the repair takes a new position: the newest feed shows it
      // first and its total is the live questions.
      const asker = await member(after, "After the restore");
      const res = await postAs(after, asker, "/api/questions", {
        title: "Asked after the repair",
        tags: ["backup"],
      });
      assert.equal(res.status, 201);
      const { id } = await res.json();
      const feed = await (await after.request("/api/questions?sort=new")).json();
      assert.equal(feed.questions[0].id, id);
      const total = counterValue((await after.kv.get(keys.counter("questions"))).value);
      assert.equal(feed.total, total);
      const tagged = await (await after.request("/api/questions?tag=backup")).json();
      assert.equal(tagged.questions[0].id, id);
    } finally {
      await after.close();
    }
  },
});

/** Assert every acknowledged write of `acks` is served or stored by `t`. */
async function assertKept(t: TestApp, acks: Ack[]): Promise<void> {
  const threads = new Map<string, { title: string; messages: { id: string }[] }>();
  const thread = async (id: string) => {
    if (!threads.has(id)) {
      const res = await t.request(`/api/questions/${id}`);
      assert.equal(res.status, 200, `question ${id}`);
      threads.set(id, await res.json());
    }
    return threads.get(id)!;
  };
  for (const a of acks) {
    if (a.kind === "question") assert.equal((await thread(a.id)).title, a.title);
    else if (a.kind === "answer") {
      const ids = (await thread(a.questionId)).messages.map((m) => m.id);
      assert.ok(ids.includes(a.id), `answer ${a.id} in ${a.questionId}`);
    } else {
      const vote = await t.kv.get(keys.vote(a.targetType, a.targetId, a.userId));
      assert.equal(
        voteOf(vote.value)?.voteType,
        a.voteType,
        `vote of ${a.userId} on ${a.targetId}`,
      );
    }
  }
}

Deno.test({
  name:
    "fsck on a live store: a check while 20 members write finds nothing, a repair while they write undoes none of it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const t = await createTestApp({ kvPath: `${tmp}/live.kv`, env: ENV });
    const w: Writers = { acks: [], posts: [], backupStarted: false, stop: false };
    try {
      const members: Member[] = [];
      for (let i = 0; i < 20; i++) members.push(await member(t, `Live ${i}`));
      const running = members.map((m, i) => writer(t, m, w, i));
      while (w.acks.filter((a) => a.kind === "vote").length < 30) {
        await new Promise((r) => setTimeout(r, 5));
      }
      // A vote raises its author's peak (best_*_upvotes) in its op from the counts it
      // read, then confirms it against the committed counters just after: for that moment
      // a peak can be below what the post has. Everything else moves in one op.
      const lagging = new Set(
        ["best_question_upvotes", "best_answer_upvotes"].map(userStatProblem),
      );
      const unexpected = (r: Awaited<ReturnType<typeof runFsck>>["found"]) =>
        r.findings().filter((f) => !lagging.has(f.kind));
      const checked = await runFsck(t.kv);
      assert.deepEqual(unexpected(checked.found), [], checked.found.lines().join("\n"));
      const repaired = await runFsck(t.kv, { repair: true });
      assert.deepEqual(unexpected(repaired.found), [], repaired.found.lines().join("\n"));
      w.stop = true;
      await Promise.all(running);
      const after = await runFsck(t.kv);
      assert.ok(after.clean, after.found.lines().join("\n"));
      assert.ok(w.acks.length > 100, `${w.acks.length} writes`);
      await assertKept(t, w.acks);
    } finally {
      w.stop = true;
      await t.close();
    }
  },
});

Deno.test("deno task fsck refuses an unknown flag and a store that is not there, with a sentence", async () => {
  const flag = await task("fsck", ["--fix"], `${tmp}/any.kv`);
  assert.equal(flag.code, 2);
  assert.match(flag.stderr, /Usage: deno task fsck \[--repair\]/);
  const missing = await task("fsck", [], `${tmp}/missing.kv`);
  assert.equal(missing.code, 1);
  assert.match(
    missing.stderr,
    /There is no store at .*missing\.kv \(KV_PATH\): nothing to check\./,
  );
  await assert.rejects(Deno.stat(`${tmp}/missing.kv`), Deno.errors.NotFound, "not created");
  const listed = await task("fsck", ["--list"], `${tmp}/any.kv`);
  assert.equal(listed.code, 0);
  assert.match(listed.stdout, /^votes: vote counters equal voter entries/m);
});

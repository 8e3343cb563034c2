import assert from "node:assert/strict";
import { clock, createJob } from "../../tests/helpers/jobs.ts";
import {
  claimJob,
  fence,
  finishJobOps,
  jobEnded,
  releaseJob,
  renewJob,
  rescheduleJobOps,
} from "./lease.ts";
import { commit } from "../kv/atomic.ts";
import { type JobContext, JobRunner, LeaseLost, PERIODIC_ID, Shutdown } from "./runner.ts";
import { keys } from "../kv/keys.ts";

const LEASE = 6_000;

/** A kind whose runs wait until released by the test; records what each run saw. */
function gatedKind(name: string) {
  const runs: { owner: string; claims: number; signal: AbortSignal }[] = [];
  let open!: () => void;
  let gate = new Promise<void>((r) => open = r);
  return {
    runs,
    open: () => {
      open();
      gate = new Promise<void>((r) => open = r);
    },
    kind: {
      kind: name,
      run: async (ctx: JobContext) => {
        runs.push({ owner: ctx.lease.owner, claims: ctx.lease.claims, signal: ctx.signal });
        await Promise.race([
          gate,
          new Promise((r) => ctx.signal.addEventListener("abort", r, { once: true })),
        ]);
      },
    },
  };
}

Deno.test("claimJob(): a held lease is refused until it lapses, then the claim counts", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const a = new JobRunner(kv, { owner: "a", now: c.now });
  await createJob(kv, a, "work", "1");
  assert.deepEqual(await claimJob(kv, "work", "1", "b", c.now(), LEASE), {
    ok: false,
    reason: "held",
  });
  c.advance(LEASE + 1);
  const got = await claimJob(kv, "work", "1", "b", c.now(), LEASE);
  assert.ok(got.ok);
  assert.equal(got.lease.owner, "b");
  assert.equal(got.lease.claims, 1, "a lapsed lease is a re-claim");
  assert.deepEqual(await claimJob(kv, "nothing", "1", "b", c.now(), LEASE), {
    ok: false,
    reason: "missing",
  });
});

Deno.test("renewJob(): keeps the lease past its first term; a renewed lease is not claimable", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const a = new JobRunner(kv, { owner: "a", now: c.now });
  await createJob(kv, a, "work", "1");
  const mine = await claimJob(kv, "work", "1", "a", c.now() + LEASE + 1, LEASE);
  assert.ok(mine.ok);
  c.advance(LEASE + 1 + LEASE - 100);
  assert.ok(await renewJob(kv, mine.lease, c.now(), LEASE));
  c.advance(LEASE - 100);
  const other = await claimJob(kv, "work", "1", "b", c.now(), LEASE);
  assert.deepEqual(other, { ok: false, reason: "held" });
});

Deno.test("fencing: once another instance claimed the job, the stale holder's commits and renewals fail", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const a = new JobRunner(kv, { owner: "a", now: c.now });
  await createJob(kv, a, "work", "1");
  const stale = await claimJob(kv, "work", "1", "a", c.now() + LEASE + 1, LEASE);
  assert.ok(stale.ok);
  // The holder stalls; its lease lapses and b takes the job.
  c.advance(3 * LEASE);
  const fresh = await claimJob(kv, "work", "1", "b", c.now(), LEASE);
  assert.ok(fresh.ok);
  const late = await fence(kv.atomic(), stale.lease).set(["result", "1"], "from a").commit();
  assert.equal(late.ok, false, "the stale holder cannot write");
  assert.equal(await renewJob(kv, stale.lease, c.now(), LEASE), false);
  const mine = await fence(kv.atomic(), fresh.lease).set(["result", "1"], "from b").commit();
  assert.ok(mine.ok);
  // The new holder's own renewals leave its fence valid.
  assert.ok(await renewJob(kv, fresh.lease, c.now(), LEASE));
  assert.ok((await fence(kv.atomic(), fresh.lease).set(["more"], 1).commit()).ok);
  assert.equal((await kv.get(["result", "1"])).value, "from b");
});

Deno.test("release: another instance claims at once and it is not counted as a re-claim", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const a = new JobRunner(kv, { owner: "a", now: c.now });
  await createJob(kv, a, "work", "1");
  const held = await claimJob(kv, "work", "1", "a", c.now() + LEASE + 1, LEASE);
  assert.ok(held.ok);
  assert.ok(await releaseJob(kv, held.lease));
  const got = await claimJob(kv, "work", "1", "b", c.now() + LEASE + 2, LEASE);
  assert.ok(got.ok, "claimable right away");
  assert.equal(got.lease.claims, held.lease.claims);
  assert.equal((await fence(kv.atomic(), held.lease).set(["x"], 1).commit()).ok, false);
});

Deno.test("JobRunner: adopt runs a new job, its end removes both rows", async () => {
  using kv = await Deno.openKv(":memory:");
  const runner = new JobRunner(kv, { owner: "a" });
  const g = gatedKind("work");
  runner.register(g.kind);
  await createJob(kv, runner, "work", "1");
  assert.ok(await runner.adopt("work", "1"));
  assert.equal(runner.isRunning("work", "1"), true);
  assert.equal(await runner.adopt("work", "1"), false, "not twice");
  g.open();
  await runner.waitIdle(2_000);
  assert.equal(runner.isRunning("work", "1"), false);
  assert.equal((await kv.get(keys.job("work", "1"))).value, null);
  assert.equal((await kv.get(keys.jobLease("work", "1"))).value, null);
  await runner.shutdown();
});

Deno.test("JobRunner: a pass on another instance resumes a job whose holder died, and only once", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const dead = new JobRunner(kv, { owner: "dead", now: c.now });
  await createJob(kv, dead, "work", "1");
  const g = gatedKind("work");
  const b = new JobRunner(kv, { owner: "b", now: c.now }).register(g.kind);
  const d = new JobRunner(kv, { owner: "d", now: c.now }).register(g.kind);
  assert.deepEqual(await b.pass(), [], "held by its creator");
  c.advance(LEASE + 1);
  const [fromB, fromD] = await Promise.all([b.pass(), d.pass()]);
  assert.equal(fromB.length + fromD.length, 1, "exactly one instance resumes it");
  assert.deepEqual(g.runs.map((r) => r.claims), [1]);
  g.open();
  await Promise.all([b.waitIdle(2_000), d.waitIdle(2_000)]);
  assert.equal((await kv.get(keys.job("work", "1"))).value, null);
  await Promise.all([b.shutdown(), d.shutdown()]);
});

Deno.test("JobRunner: past the re-claim cap the job is given up, not run", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const runs: number[] = [];
  const gaveUp: number[] = [];
  const kind = {
    kind: "work",
    run: (ctx: JobContext) => {
      runs.push(ctx.lease.claims);
      // Crash: the run never returns while its renewals are failing (a stuck process).
      return new Promise<void>((r) => ctx.signal.addEventListener("abort", () => r()));
    },
    giveUp: async (ctx: JobContext) => {
      gaveUp.push(ctx.lease.claims);
      await ctx.finish(ctx.fence(kv.atomic()).set(["failed", ctx.id], true)).commit();
    },
  };
  const creator = new JobRunner(kv, { owner: "creator", now: c.now });
  await createJob(kv, creator, "work", "1");
  const instances: JobRunner[] = [];
  for (let i = 0; i < 4; i++) {
    c.advance(LEASE + 1);
    // Each instance "dies" holding the job (renewals never fire: a long renew period).
    const r = new JobRunner(kv, { owner: `i${i}`, now: c.now, renewMs: 3_600_000 });
    r.register(kind);
    instances.push(r);
    assert.equal((await r.pass()).length, 1);
  }
  assert.deepEqual(runs, [1, 2, 3]);
  assert.deepEqual(gaveUp, [4]);
  await instances[3].waitIdle(2_000);
  assert.equal((await kv.get(["failed", "1"])).value, true);
  assert.equal((await kv.get(keys.job("work", "1"))).value, null, "ended");
  for (const r of instances) await r.shutdown(0);
});

Deno.test("JobRunner: shutdown aborts runs and releases them; another instance resumes at once without a counted claim", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const g = gatedKind("work");
  const a = new JobRunner(kv, { owner: "a", now: c.now }).register(g.kind);
  await createJob(kv, a, "work", "1");
  assert.ok(await a.adopt("work", "1"));
  await a.shutdown();
  assert.ok(g.runs[0].signal.aborted);
  assert.ok(g.runs[0].signal.reason instanceof Shutdown);
  assert.equal(await a.adopt("work", "1"), false, "a stopped runner starts nothing");
  const b = new JobRunner(kv, { owner: "b", now: c.now }).register(g.kind);
  assert.deepEqual(await b.pass(), ["work/1"], "no wait for the lease to lapse");
  assert.deepEqual(g.runs.map((r) => [r.owner, r.claims]), [["a", 0], ["b", 0]]);
  g.open();
  await b.waitIdle(2_000);
  await b.shutdown();
});

Deno.test("JobRunner: a holder whose renewal fails learns it lost the job (LeaseLost)", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const g = gatedKind("work");
  const a = new JobRunner(kv, { owner: "a", now: c.now, renewMs: 20 }).register(g.kind);
  await createJob(kv, a, "work", "1");
  assert.ok(await a.adopt("work", "1"));
  // Someone else claims it (say a's clock was far behind).
  const other = await claimJob(kv, "work", "1", "b", c.now() + LEASE + 1, LEASE);
  assert.ok(other.ok);
  await a.waitIdle(2_000);
  assert.ok(g.runs[0].signal.reason instanceof LeaseLost);
  assert.equal((await kv.get(keys.job("work", "1"))).value !== null, true, "b's job stays");
  await a.shutdown();
});

Deno.test("jobEnded(): a finished job or one its holder let go has ended; one another instance claimed has not", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const a = new JobRunner(kv, { owner: "a", now: c.now });
  for (const id of ["finished", "rescheduled", "claimed"]) await createJob(kv, a, "work", id);
  const held = async (
    id: string,
  ) => (await claimJob(kv, "work", id, "a", c.now() + LEASE + 1, LEASE));
  const [finished, rescheduled, claimed] = await Promise.all(
    ["finished", "rescheduled", "claimed"].map(held),
  );
  assert.ok(finished.ok && rescheduled.ok && claimed.ok);
  assert.ok((await commit(kv, (op) => finishJobOps(op, finished.lease))).ok);
  assert.ok(
    (await commit(kv, (op) => rescheduleJobOps(op, rescheduled.lease, c.now() + 60_000))).ok,
  );
  assert.ok((await claimJob(kv, "work", "claimed", "b", c.now() + 3 * LEASE, LEASE)).ok);
  for (const lease of [finished.lease, rescheduled.lease, claimed.lease]) {
    assert.equal(await renewJob(kv, lease, c.now(), LEASE), false, `${lease.id}: fence moved`);
  }
  assert.deepEqual(
    await Promise.all([finished, rescheduled, claimed].map((g) => jobEnded(kv, g.lease))),
    [true, true, false],
  );
});

Deno.test("JobRunner: a periodic kind runs once per period across instances", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  let runs = 0;
  const kind = { kind: "tick", every: 30_000, run: () => Promise.resolve(void runs++) };
  const a = new JobRunner(kv, { owner: "a", now: c.now }).register(kind);
  const b = new JobRunner(kv, { owner: "b", now: c.now }).register(kind);
  await Promise.all([a.pass(), b.pass()]);
  await Promise.all([a.waitIdle(), b.waitIdle()]);
  assert.equal(runs, 1);
  c.advance(10_000);
  await Promise.all([a.pass(), b.pass()]);
  assert.equal(runs, 1, "not due yet");
  c.advance(20_000);
  await Promise.all([a.pass(), b.pass()]);
  await Promise.all([a.waitIdle(), b.waitIdle()]);
  assert.equal(runs, 2);
  const rec = await kv.get<{ due: number }>(keys.job("tick", PERIODIC_ID));
  assert.equal(rec.value?.due, c.now() + 30_000);
  await Promise.all([a.shutdown(), b.shutdown()]);
});

Deno.test("JobRunner: a periodic kind of a new revision runs at the first pass after the upgrade; the same revision waits for its period", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const runs: string[] = [];
  const kind = (revision: number | undefined, tag: string) => ({
    kind: "migrate",
    every: 24 * 60 * 60_000,
    revision,
    run: () => Promise.resolve(void runs.push(tag)),
  });
  const pass = async (runner: JobRunner) => {
    await runner.pass();
    await runner.waitIdle();
    await runner.shutdown();
  };
  // A record from before kinds had revisions: the first revised code runs it at once.
  await pass(new JobRunner(kv, { owner: "old", now: c.now }).register(kind(undefined, "old")));
  c.advance(60_000);
  await pass(new JobRunner(kv, { owner: "v1", now: c.now }).register(kind(1, "v1")));
  assert.deepEqual(runs, ["old", "v1"]);
  const rec = await kv.get<{ due: number; revision?: number }>(keys.job("migrate", PERIODIC_ID));
  assert.equal(rec.value?.revision, 1);
  assert.equal(rec.value?.due, c.now() + 24 * 60 * 60_000);
  // Restarted on the same revision: waits for its day.
  c.advance(60_000);
  await pass(new JobRunner(kv, { owner: "v1b", now: c.now }).register(kind(1, "v1b")));
  assert.deepEqual(runs, ["old", "v1"]);
  // Upgraded: runs at the first pass, on one instance of two, and then waits again.
  c.advance(60_000);
  const a = new JobRunner(kv, { owner: "v2a", now: c.now }).register(kind(2, "v2a"));
  const b = new JobRunner(kv, { owner: "v2b", now: c.now }).register(kind(2, "v2b"));
  await Promise.all([a.pass(), b.pass()]);
  await Promise.all([a.waitIdle(), b.waitIdle()]);
  await Promise.all([a.pass(), b.pass()]);
  await Promise.all([a.waitIdle(), b.waitIdle()]);
  assert.equal(runs.length, 3, runs.join());
  assert.match(runs[2], /^v2/);
  assert.equal(
    (await kv.get<{ revision?: number }>(keys.job("migrate", PERIODIC_ID))).value?.revision,
    2,
  );
  await Promise.all([a.shutdown(), b.shutdown()]);
});

Deno.test("JobRunner: a periodic kind's record of another revision is left alone while a run holds it", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const gated = gatedKind("migrate");
  const v1 = new JobRunner(kv, { owner: "v1", now: c.now })
    .register({ ...gated.kind, every: 60_000, revision: 1 });
  await v1.pass();
  assert.equal(gated.runs.length, 1, "v1 runs");
  // An upgraded instance's pass while v1's run is still going: it neither rewrites the
  // record (which would fence v1 out mid-run) nor runs it twice.
  const v2 = new JobRunner(kv, { owner: "v2", now: c.now })
    .register({ ...gated.kind, every: 60_000, revision: 2 });
  await v2.pass();
  assert.equal(gated.runs.length, 1);
  assert.equal(gated.runs[0].signal.aborted, false, "v1 keeps its lease");
  gated.open();
  await v1.waitIdle();
  // v1 rescheduled it under revision 1; v2's next pass makes it due and runs it.
  await v2.pass();
  assert.equal(gated.runs.length, 2);
  assert.equal(gated.runs[1].owner, "v2");
  gated.open();
  await v2.waitIdle();
  await Promise.all([v1.shutdown(), v2.shutdown()]);
});

Deno.test("JobRunner: a job created again right as its previous run ends it is adopted once that run settles", async () => {
  using kv = await Deno.openKv(":memory:");
  const runner = new JobRunner(kv, { owner: "a" });
  let runs = 0;
  let endedFirst!: () => void;
  const firstEnded = new Promise<void>((r) => endedFirst = r);
  let settle!: () => void;
  const settled = new Promise<void>((r) => settle = r);
  runner.register({
    kind: "work",
    run: async (ctx) => {
      runs++;
      if (runs > 1) return;
      // The first run ends its job in its last write, then is slow to return.
      await ctx.finish(ctx.fence(kv.atomic())).commit();
      endedFirst();
      await settled;
    },
  });
  await createJob(kv, runner, "work", "1");
  assert.ok(await runner.adopt("work", "1"));
  await firstEnded;
  await createJob(kv, runner, "work", "1"); // new work for the same id, e.g. a reply
  const adopting = runner.adopt("work", "1");
  settle();
  assert.equal(await adopting, true, "adopted after the first run settled");
  await runner.waitIdle(2_000);
  assert.equal(runs, 2);
  assert.equal((await kv.get(keys.job("work", "1"))).value, null);
  await runner.shutdown();
});

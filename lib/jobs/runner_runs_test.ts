import assert from "node:assert/strict";
import { clock, createJob, settlesWithin } from "../../tests/helpers/jobs.ts";
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { JobRecord } from "./lease.ts";
import { type JobContext, JobRunner, LEASE_MS } from "./runner.ts";

/** A kind whose runs wait until the test opens the gate (or the run is aborted). */
function gatedKind(name: string) {
  const runs: string[] = [];
  let open!: () => void;
  const gate = new Promise<void>((r) => open = r);
  return {
    runs,
    open: () => open(),
    kind: {
      kind: name,
      run: async (ctx: JobContext) => {
        runs.push(ctx.id);
        await Promise.race([
          gate,
          new Promise((r) => ctx.signal.addEventListener("abort", r, { once: true })),
        ]);
      },
    },
  };
}

/** Run `fn` with `console.error` captured; what was logged. */
async function capturingErrors(fn: () => Promise<void>): Promise<unknown[][]> {
  const logged: unknown[][] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void logged.push(args);
  try {
    await fn();
  } finally {
    console.error = error;
  }
  return logged;
}

Deno.test("JobRunner.waitIdle(ms, kind): waits for that kind's runs only, and no longer than ms", async () => {
  using kv = await Deno.openKv(":memory:");
  const alpha = gatedKind("alpha");
  const beta = gatedKind("beta");
  const runner = new JobRunner(kv, { owner: "a" }).register(alpha.kind).register(beta.kind);
  for (const kind of ["alpha", "beta"]) {
    await createJob(kv, runner, kind, "1");
    assert.ok(await runner.adopt(kind, "1"));
  }
  await createJob(kv, runner, "beta", "2");
  assert.ok(await runner.adopt("beta", "2"));
  assert.deepEqual([runner.running(), runner.running("alpha"), runner.running("beta")], [3, 1, 2]);
  beta.open();
  await settlesWithin(runner.waitIdle(60_000, "beta"), "waitIdle of beta while alpha runs");
  assert.deepEqual([runner.running("alpha"), runner.running("beta")], [1, 0]);
  assert.equal(runner.isRunning("alpha", "1"), true);
  // Bounded: alpha's run does not end, the wait does.
  await settlesWithin(runner.waitIdle(20, "alpha"), "a bounded waitIdle");
  assert.equal(runner.isRunning("alpha", "1"), true);
  alpha.open();
  await settlesWithin(runner.waitIdle(60_000), "waitIdle of everything");
  assert.equal(runner.running(), 0);
  await runner.shutdown();
});

Deno.test("JobRunner.pass(): concurrent calls share one pass, and each due job is taken once", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const g = gatedKind("work");
  const dead = new JobRunner(kv, { owner: "dead", now: c.now });
  for (const id of ["1", "2", "3"]) await createJob(kv, dead, "work", id);
  c.advance(LEASE_MS + 1);
  const runner = new JobRunner(kv, { owner: "a", now: c.now }).register(g.kind);
  const first = runner.pass();
  const second = runner.pass();
  assert.equal(first, second, "the second call joined the pass under way");
  assert.deepEqual((await first).sort(), ["work/1", "work/2", "work/3"]);
  assert.deepEqual(await runner.pass(), [], "a later pass finds them held here");
  assert.deepEqual(g.runs.sort(), ["1", "2", "3"]);
  g.open();
  await runner.waitIdle(10_000);
  await runner.shutdown();
  assert.deepEqual(await runner.pass(), [], "a stopped runner takes nothing");
});

Deno.test("JobRunner: a kind this instance cannot run (canRun false) is left unclaimed for one that can", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  await createJob(kv, new JobRunner(kv, { owner: "dead", now: c.now }), "model", "1");
  c.advance(LEASE_MS + 1);
  const ran: string[] = [];
  const kind = (able: boolean) => ({
    kind: "model",
    canRun: () => able,
    run: (ctx: JobContext) => Promise.resolve(void ran.push(ctx.lease.owner)),
  });
  const without = new JobRunner(kv, { owner: "no-model", now: c.now }).register(kind(false));
  assert.deepEqual(await without.pass(), []);
  const rec = await kv.get<JobRecord>(keys.job("model", "1"));
  assert.deepEqual([rec.value?.owner, rec.value?.claims], ["dead", 0], "not even claimed");
  const able = new JobRunner(kv, { owner: "with-model", now: c.now }).register(kind(true));
  assert.deepEqual(await able.pass(), ["model/1"]);
  await able.waitIdle(10_000);
  assert.deepEqual(ran, ["with-model"]);
  assert.equal((await kv.get(keys.job("model", "1"))).value, null);
  await Promise.all([without.shutdown(), able.shutdown()]);
});

Deno.test("JobRunner: a run that throws is logged and left to lapse; after its lease a counted claim runs it again", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const attempts: [string, number][] = [];
  const kind = {
    kind: "flaky",
    run: (ctx: JobContext) => {
      attempts.push([ctx.lease.owner, ctx.lease.claims]);
      if (attempts.length === 1) return Promise.reject(new Error("model timed out"));
      return Promise.resolve();
    },
  };
  const a = new JobRunner(kv, { owner: "a", now: c.now }).register(kind);
  const b = new JobRunner(kv, { owner: "b", now: c.now }).register(kind);
  await createJob(kv, a, "flaky", "1");
  const logged = await capturingErrors(async () => {
    assert.ok(await a.adopt("flaky", "1"));
    await a.waitIdle(10_000);
  });
  assert.equal(logged.length, 1);
  assert.match(String(logged[0][0]), /flaky\/1 failed/);
  assert.notEqual((await kv.get(keys.job("flaky", "1"))).value, null, "not ended");
  assert.deepEqual(await b.pass(), [], "not released either: its lease still holds");
  c.advance(LEASE_MS + 1);
  assert.deepEqual(await b.pass(), ["flaky/1"]);
  await b.waitIdle(10_000);
  assert.deepEqual(attempts, [["a", 0], ["b", 1]]);
  assert.equal((await kv.get(keys.job("flaky", "1"))).value, null);
  await Promise.all([a.shutdown(), b.shutdown()]);
});

Deno.test("JobRunner.adopt(): the creator's in-process value reaches the run; a resume elsewhere has none", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const seen: [string, unknown][] = [];
  const kind = {
    kind: "listened",
    run: (ctx: JobContext<{ listener: string }>) =>
      Promise.resolve(void seen.push([ctx.id, ctx.local])),
  };
  const a = new JobRunner(kv, { owner: "a", now: c.now }).register(kind);
  await createJob(kv, a, "listened", "1");
  assert.ok(await a.adopt("listened", "1", { listener: "the page that asked" }));
  await a.waitIdle(10_000);
  // Job 2's creator died before adopting it; another instance resumes it.
  await createJob(kv, new JobRunner(kv, { owner: "dead", now: c.now }), "listened", "2");
  c.advance(LEASE_MS + 1);
  const b = new JobRunner(kv, { owner: "b", now: c.now }).register(kind);
  assert.equal(await b.adopt("listened", "2"), false, "not b's to adopt");
  assert.deepEqual(await b.pass(), ["listened/2"]);
  await b.waitIdle(10_000);
  assert.deepEqual(seen, [["1", { listener: "the page that asked" }], ["2", undefined]]);
  await Promise.all([a.shutdown(), b.shutdown()]);
});

Deno.test("JobRunner.register(): one kind per name, the first registration stands", async () => {
  using kv = await Deno.openKv(":memory:");
  const ran: string[] = [];
  const runner = new JobRunner(kv, { owner: "a" })
    .register({ kind: "work", run: () => Promise.resolve(void ran.push("first")) })
    .register({ kind: "work", run: () => Promise.resolve(void ran.push("second")) });
  assert.equal(runner.has("work"), true);
  assert.equal(runner.has("other"), false);
  await createJob(kv, runner, "work", "1");
  assert.ok(await runner.adopt("work", "1"));
  await runner.waitIdle(10_000);
  assert.deepEqual(ran, ["first"]);
  await runner.shutdown();
});

Deno.test("JobRunner: a run that ends its job in its own last write (ctx.finish) commits result and end together, nothing logged", async () => {
  using kv = await Deno.openKv(":memory:");
  const runner = new JobRunner(kv, { owner: "a" }).register({
    kind: "greeting",
    run: async (ctx) => {
      const res = await commit(kv, (op) => ctx.finish(op).set(["greetings", ctx.id], "hello"));
      assert.ok(res.ok);
    },
  });
  await createJob(kv, runner, "greeting", "1");
  const logged = await capturingErrors(async () => {
    assert.ok(await runner.adopt("greeting", "1"));
    await runner.waitIdle(10_000);
  });
  assert.deepEqual(logged, []);
  assert.equal((await kv.get(["greetings", "1"])).value, "hello");
  assert.equal((await kv.get(keys.job("greeting", "1"))).value, null);
  assert.equal((await kv.get(keys.jobLease("greeting", "1"))).value, null);
  await runner.shutdown();
});

Deno.test("JobRunner: a run still working after its own last write ended the job is not told it was taken over", async () => {
  using kv = await Deno.openKv(":memory:");
  let abortedAfter: boolean | null = null;
  const runner = new JobRunner(kv, { owner: "a", renewMs: 10 }).register({
    kind: "tail",
    run: async (ctx) => {
      assert.ok((await commit(kv, (op) => ctx.finish(op).set(["tail", ctx.id], "done"))).ok);
      // What follows the last commit (a fan-out trims histories here): 8 renewals come due.
      await new Promise((r) => setTimeout(r, 80));
      abortedAfter = ctx.signal.aborted;
    },
  });
  await createJob(kv, runner, "tail", "1");
  const warned: unknown[][] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warned.push(args);
  try {
    assert.ok(await runner.adopt("tail", "1"));
    await runner.waitIdle(10_000);
  } finally {
    console.warn = warn;
  }
  assert.equal(abortedAfter, false, "the run was not aborted");
  assert.deepEqual(warned, [], "no warning that another instance took it");
  assert.equal((await kv.get(["tail", "1"])).value, "done");
  await runner.shutdown();
});

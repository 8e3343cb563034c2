import assert from "node:assert/strict";
import { clock, settlesWithin } from "../../tests/helpers/jobs.ts";
import { keys } from "../kv/keys.ts";
import { type JobContext, JobRunner, LEASE_MS, Shutdown } from "./runner.ts";
import { cronPass, JOBS_CRON } from "./triggers.ts";

/** A kind whose runs wait until the test opens the gate (or the run is aborted). */
function gatedKind(name: string) {
  const runs: { id: string; signal: AbortSignal }[] = [];
  let open!: () => void;
  const gate = new Promise<void>((r) => open = r);
  let started!: () => void;
  const firstRun = new Promise<void>((r) => started = r);
  return {
    runs,
    open: () => open(),
    /** Settles when the first run starts. */
    firstRun,
    kind: {
      kind: name,
      run: async (ctx: JobContext) => {
        runs.push({ id: ctx.id, signal: ctx.signal });
        started();
        await Promise.race([
          gate,
          new Promise((r) => ctx.signal.addEventListener("abort", r, { once: true })),
        ]);
      },
    },
  };
}

/** A job of `kind` whose creator died: claimable once `c` moved past its lease. */
async function orphanJob(kv: Deno.Kv, c: ReturnType<typeof clock>, kind: string, id: string) {
  const dead = new JobRunner(kv, { owner: "dead", now: c.now });
  assert.ok((await dead.newJobOps(kv.atomic(), kind, id).commit()).ok);
  c.advance(LEASE_MS + 1);
}

/**
 * `kv` with its `list` calls counted (the runner lists the jobs once per pass): `lists`
 * started, `listed` read to their end.
 */
function countingLists(kv: Deno.Kv) {
  const seen = { lists: 0, listed: 0 };
  const counted = new Proxy(kv, {
    get(target, prop) {
      if (prop === "list") {
        return (...args: Parameters<Deno.Kv["list"]>) => {
          seen.lists++;
          const entries = target.list(...args);
          return {
            [Symbol.asyncIterator]() {
              return this;
            },
            async next() {
              const r = await entries.next();
              if (r.done) seen.listed++;
              return r;
            },
          };
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: counted, seen };
}

/** Let timers and KV callbacks run for a while (to show that something did not happen). */
function settle(ms = 50) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Wait until `cond` holds; fail after a generous bound instead of hanging. */
async function eventually(cond: () => boolean, what: string, boundMs = 10_000) {
  const deadline = performance.now() + boundMs;
  while (!cond()) {
    if (performance.now() > deadline) assert.fail(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

Deno.test("JOBS_CRON: a once-a-minute schedule of five fields (what Deploy accepts)", () => {
  assert.deepEqual(JOBS_CRON.schedule.split(" "), ["*", "*", "*", "*", "*"]);
  assert.match(JOBS_CRON.name, /^[a-z0-9-]+$/);
});

Deno.test("cronPass(): waits for the runner to be ready, runs a pass, and stays until what it took has run", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const g = gatedKind("work");
  const runner = new JobRunner(kv, { owner: "cron", now: c.now }).register(g.kind);
  await orphanJob(kv, c, "work", "1");
  let resolveReady!: (r: JobRunner) => void;
  const ready = new Promise<JobRunner>((r) => resolveReady = r);
  let returned = false;
  const invocation = cronPass(ready, 60_000).then(() => returned = true);
  await settle();
  assert.deepEqual(g.runs, [], "no pass before the app is up");
  assert.equal(returned, false);
  resolveReady(runner);
  await settlesWithin(g.firstRun, "the pass taking the job");
  assert.equal(runner.isRunning("work", "1"), true);
  await settle();
  assert.equal(returned, false, "the invocation stays while the job runs");
  g.open();
  await settlesWithin(invocation, "cronPass after its job ended");
  assert.equal(runner.isRunning("work", "1"), false);
  assert.equal((await kv.get(keys.job("work", "1"))).value, null, "the job ran to its end");
  await runner.shutdown();
});

Deno.test("cronPass(): an app that is never ready is waited for only within the bound, and no pass runs", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const g = gatedKind("work");
  const runner = new JobRunner(kv, { owner: "late", now: c.now }).register(g.kind);
  await orphanJob(kv, c, "work", "1");
  let resolveReady!: (r: JobRunner) => void;
  const ready = new Promise<JobRunner>((r) => resolveReady = r);
  await settlesWithin(cronPass(ready, 20), "cronPass with an app that never came up");
  // Ready after the invocation gave up: that invocation runs nothing.
  resolveReady(runner);
  await settle();
  assert.deepEqual(g.runs, []);
  assert.equal(runner.running(), 0);
  const rec = await kv.get<{ owner: string }>(keys.job("work", "1"));
  assert.equal(rec.value?.owner, "dead", "nobody claimed it");
  await runner.shutdown();
});

Deno.test("cronPass(): stays busy only within its bound; a job still running after it keeps running", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const g = gatedKind("long");
  const runner = new JobRunner(kv, { owner: "cron", now: c.now }).register(g.kind);
  await orphanJob(kv, c, "long", "1");
  await settlesWithin(cronPass(Promise.resolve(runner), 30), "cronPass past its busy bound");
  assert.equal(g.runs.length, 1, "the pass took the job");
  assert.equal(runner.isRunning("long", "1"), true, "the invocation ended, the job did not");
  assert.equal(g.runs[0].signal.aborted, false);
  await runner.shutdown();
  assert.ok(g.runs[0].signal.reason instanceof Shutdown);
});

Deno.test("nudge(): a request's pass at most once per nudgeEveryMs, never while stopping", async () => {
  using store = await Deno.openKv(":memory:");
  // Throttled: a second nudge right after the first starts no pass.
  const slow = countingLists(store);
  const throttled = new JobRunner(slow.kv, { owner: "a", nudgeEveryMs: 3_600_000 });
  throttled.nudge();
  assert.equal(slow.seen.lists, 1, "the first nudge started a pass at once");
  await eventually(() => slow.seen.listed === 1, "the first nudge's pass");
  await settle();
  for (let i = 0; i < 5; i++) throttled.nudge();
  await settle();
  assert.equal(slow.seen.lists, 1, "throttled");
  // Unthrottled: every nudge after the last pass ended runs one.
  const eager = countingLists(store);
  const every = new JobRunner(eager.kv, { owner: "b", nudgeEveryMs: 0 });
  for (let n = 1; n <= 3; n++) {
    every.nudge();
    assert.equal(eager.seen.lists, n, `nudge ${n} started a pass at once`);
    // Once its list is read the pass ends within microtasks; the next nudge starts anew.
    await eventually(() => eager.seen.listed === n, `nudge ${n}'s pass`);
    await settle(1);
  }
  await every.shutdown();
  every.nudge();
  await settle();
  assert.equal(eager.seen.lists, 3, "a stopped runner starts no pass");
  await throttled.shutdown();
});

Deno.test("nudge(): a failing pass is logged, never thrown at the request", async () => {
  using kv = await Deno.openKv(":memory:");
  const broken = new Proxy(kv, {
    get(target, prop) {
      if (prop === "list") {
        return () => ({
          [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error("KV down")) }),
        });
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const runner = new JobRunner(broken, { owner: "a" });
  const logged: unknown[][] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void logged.push(args);
  try {
    runner.nudge(); // returns; the failure is the pass's
    await eventually(() => logged.length === 1, "the pass failure logged");
  } finally {
    console.error = error;
  }
  assert.match(String(logged[0][0]), /pass failed/);
  assert.match(String(logged[0][1]), /KV down/);
  await runner.shutdown();
});

Deno.test("startTimer(): passes keep running while the process lives and resume a job that became due; shutdown stops them", async () => {
  using store = await Deno.openKv(":memory:");
  const { kv, seen } = countingLists(store);
  const c = clock();
  const g = gatedKind("work");
  const runner = new JobRunner(kv, { owner: "timer", now: c.now, nudgeEveryMs: 0 })
    .register(g.kind);
  runner.startTimer(5);
  runner.startTimer(5); // a second start is the same timer
  await eventually(() => seen.lists >= 3, "three timer passes");
  assert.deepEqual(g.runs, [], "nothing to take yet");
  // A job whose holder died: the timer's next pass takes it, no request needed.
  await orphanJob(store, c, "work", "1");
  await settlesWithin(g.firstRun, "a timer pass taking the orphaned job");
  assert.equal(runner.isRunning("work", "1"), true);
  g.open();
  await runner.waitIdle(5_000);
  await runner.shutdown();
  const after = seen.lists;
  await settle();
  assert.equal(seen.lists, after, "no pass after shutdown");
  assert.equal((await store.get(keys.job("work", "1"))).value, null);
});

/** A given-up run ends its log with one `error` event and its record settled, in one commit. */
import assert from "node:assert/strict";
import { clock, createJob } from "../../tests/helpers/jobs.ts";
import { keys } from "../kv/keys.ts";
import { appendEvents, readLog } from "../kv/event_log.ts";
import { commit } from "../kv/atomic.ts";
import { type JobContext, JobRunner } from "./runner.ts";
import { giveUpWithError, JobEventWriter, type LogEvent } from "./event_writer.ts";

const LEASE = 6_000;

Deno.test("giveUpWithError: a job crashed too often appends an error after its last event, settles its record and ends", async () => {
  using kv = await Deno.openKv(":memory:");
  const c = clock();
  const log = { event: (n: number) => ["log", "1", n], head: ["log_head", "1"] };
  await commit(kv, (op) => {
    appendEvents(op, log, 0, [{ type: "hello", data: {} }, { type: "turn", data: {} }]);
    op.set(["run", "1"], { status: "in_progress" });
  });
  const kind = {
    kind: "work",
    // A crash: the run never returns while its renewals are failing (a stuck process).
    run: (ctx: JobContext) =>
      new Promise<void>((r) => ctx.signal.addEventListener("abort", () => r())),
    giveUp: (ctx: JobContext) =>
      giveUpWithError<{ status: string }>(ctx, {
        recordKey: ["run", "1"],
        headKey: log.head,
        writer: (seq) =>
          new JobEventWriter<LogEvent>(kv, ctx.id, log, ctx, seq, {
            speakerOf: () => null,
            textOf: () => "",
            merge: (_s, text) => ({ type: "chunk", data: text }),
          }),
        message: "Stopped: interrupted too often.",
        settle: (op, record) => {
          if (record?.status === "in_progress") op.set(["run", "1"], { status: "failed" });
        },
      }),
  };
  await createJob(kv, new JobRunner(kv, { owner: "creator", now: c.now }), "work", "1");
  const instances: JobRunner[] = [];
  for (let i = 0; i < 4; i++) {
    c.advance(LEASE + 1);
    const r = new JobRunner(kv, { owner: `i${i}`, now: c.now, renewMs: 3_600_000 });
    r.register(kind);
    instances.push(r);
    await r.pass();
  }
  await instances[3].waitIdle(2_000);
  const events = await readLog(kv, log, 0);
  assert.deepEqual(events.map((e) => [e.seq, e.type]), [[1, "hello"], [2, "turn"], [3, "error"]]);
  assert.deepEqual(events[2].data, { message: "Stopped: interrupted too often." });
  assert.deepEqual((await kv.get(["run", "1"])).value, { status: "failed" });
  assert.equal((await kv.get(keys.job("work", "1"))).value, null, "the job ended");
  for (const r of instances) await r.shutdown(0);
});

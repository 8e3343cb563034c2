/**
 * A roundtable survives the instance that runs it: when its job's lease lapses mid-turn,
 * another instance's resume pass continues after the last stored statement — the stored
 * statements are kept, none is written twice, the old holder can no longer write, and a
 * replay from the start reads like one clean run.
 */
import assert from "node:assert/strict";
import { JobRunner, LEASE_MS } from "@/lib/jobs/runner.ts";
import { claimJob } from "@/lib/jobs/lease.ts";
import { roundtableJobKind } from "@/lib/roundtables/job.ts";
import { minutesFor } from "@/lib/schemas/roundtable.ts";
import { createTestApp, jsonWrite, signInAs, waitForJobs } from "../helpers/app.ts";
import { startFakeLlm } from "../helpers/fake_llm.ts";
import { roundtableReply } from "../helpers/roundtable_llm.ts";
import { parseResumable, readUntil } from "../helpers/sse.ts";

Deno.test("a roundtable whose instance stopped mid-statement is finished by another instance from its last stored statement, each statement once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "roundtable-resume-" });
  const llm = startFakeLlm(roundtableReply(5));
  const kvPath = `${dir}/kv.sqlite`;
  const clockA = { t: Date.now() };
  const a = await createTestApp({ kvPath, env: llm.env, now: () => clockA.t });
  const b = await createTestApp({ kvPath, env: llm.env });
  try {
    const { cookie } = await signInAs(a, "Host");
    const post = await a.request("/api/roundtables", {
      method: "POST",
      headers: jsonWrite(a, cookie),
      body: JSON.stringify({
        topic: "Four-day work weeks?",
        expertIds: ["kwame", "noah", "aisha"],
        rounds: 2,
      }),
    });
    assert.equal(post.status, 200);
    // Until the fourth statement is being written, then the client leaves.
    const seen = await readUntil(
      post,
      (e, all) => e.type === "chunk" && all.filter((x) => x.type === "statement").length === 3,
      { resumable: true },
    );
    const id = seen[0].data.id as string;
    const kept = seen.filter((e) => e.type === "statement").map((e) => e.data.message.content);
    // Instance B's runner, its clock past A's lease, takes the roundtable over.
    const later = Date.now() + LEASE_MS + 1_000;
    const runnerB = new JobRunner(b.kv, { owner: "b", now: () => later });
    runnerB.register(roundtableJobKind(b.services));
    assert.deepEqual(await runnerB.pass(), [`roundtable/${id}`]);
    await runnerB.waitIdle(30_000);
    await waitForJobs(30_000, "roundtable");
    const rt = await (await b.request(`/api/roundtables/${id}`, { headers: { cookie } })).json();
    assert.equal(rt.status, "completed");
    assert.equal(rt.messages.length, 9);
    assert.deepEqual(
      rt.messages.map((m: { id: string }) => m.id),
      [...Array(9).keys()].map((i) => `m${i + 1}`),
    );
    assert.equal(new Set(rt.messages.map((m: { content: string }) => m.content)).size, 9);
    assert.deepEqual(
      rt.messages.slice(0, 3).map((m: { content: string }) => m.content),
      kept,
      "the stored statements were kept, not regenerated",
    );
    assert.deepEqual(
      rt.messages.map((m: { expertId: string }) => m.expertId),
      ["kwame", "noah", "aisha", "kwame", "noah", "aisha", "kwame", "noah", "aisha"],
    );
    assert.ok(minutesFor(["kwame", "noah", "aisha"]).safeParse(rt.minutes).success);
    // A full replay reads as one run: ids in order, the abandoned partial turn dropped.
    const replay = parseResumable(
      await (await b.request(`/api/roundtables/${id}/events`, { headers: { cookie } })).text(),
    );
    let text = "";
    const spelled: string[] = [];
    for (const e of replay) {
      if (e.type === "speaking") text = "";
      if (e.type === "chunk") text += e.data.content;
      if (e.type === "statement") {
        assert.equal(text, e.data.message.content);
        spelled.push(text);
      }
    }
    assert.equal(spelled.length, 9);
    assert.equal(replay.filter((e) => e.type === "init").length, 1, "init once");
    assert.equal(replay.filter((e) => e.type === "done").length, 1);
    assert.equal(replay.at(-1)!.type, "done");
    // The job ended with the roundtable: nothing is left to claim.
    const stale = await claimJob(a.kv, "roundtable", id, "a", Date.now() + 3 * LEASE_MS, LEASE_MS);
    assert.deepEqual(stale, { ok: false, reason: "missing" });
    await runnerB.shutdown();
  } finally {
    await waitForJobs(10_000, "roundtable");
    await a.close();
    await b.close();
    await llm.close();
    await Deno.remove(dir, { recursive: true });
  }
});

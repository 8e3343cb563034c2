/**
 * Crash safety with real processes: `main.ts` runs a roundtable on a temp KV file and is
 * killed with SIGKILL mid-statement; a second `main.ts` on the same file finishes it —
 * the statements stored before the kill kept, none written twice, and the minutes.
 */
import assert from "node:assert/strict";
import { startFakeLlm } from "../helpers/fake_llm.ts";
import { roundtableReply } from "../helpers/roundtable_llm.ts";
import {
  localMainEnv,
  localSignIn,
  spawnMainDrained,
  stopCrashedAndSuccessor,
  waitHealthy,
} from "../helpers/processes.ts";
import { readUntil } from "../helpers/sse.ts";

Deno.test("a roundtable whose process is killed with SIGKILL mid-statement is finished by a second process on the same KV file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "roundtable-crash-" });
  const llm = startFakeLlm(roundtableReply(15));
  const { origin, env } = localMainEnv(`${dir}/kv.sqlite`, {
    ...llm.env,
    JOBS_PASS_INTERVAL_MS: "500",
  });
  let second: Deno.ChildProcess | null = null;
  const first = spawnMainDrained(env);
  try {
    await waitHealthy(origin, 20_000);
    const cookie = (await localSignIn(origin, "provider_a", { account: "a-1001" })).header();
    const res = await fetch(`${origin}/api/roundtables`, {
      method: "POST",
      headers: { cookie, origin, "content-type": "application/json" },
      body: JSON.stringify({
        topic: "Should schools ban phones?",
        expertIds: ["aisha", "noah", "priya"],
        rounds: 2,
      }),
    });
    assert.equal(res.status, 200);
    // Three statements stored and the fourth being written, then the process dies.
    const seen = await readUntil(
      res,
      (e, all) => e.type === "chunk" && all.filter((x) => x.type === "statement").length === 3,
      { resumable: true },
    );
    const id = seen[0].data.id as string;
    first.kill("SIGKILL");
    await first.status;

    second = spawnMainDrained(env);
    await waitHealthy(origin, 20_000);
    let rt: {
      status: string;
      messages: { id: string; content: string; expertId: string }[];
      minutes: unknown;
    } | null = null;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      rt = await (await fetch(`${origin}/api/roundtables/${id}`, { headers: { cookie } })).json();
      if (rt!.status !== "in_progress") break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(rt!.status, "completed");
    assert.equal(rt!.messages.length, 9);
    assert.equal(new Set(rt!.messages.map((m) => m.content)).size, 9, "no statement twice");
    assert.deepEqual(
      rt!.messages.slice(0, 3).map((m) => m.content),
      seen.filter((e) => e.type === "statement").map((e) => e.data.message.content),
      "the stored statements were kept, not regenerated",
    );
    assert.deepEqual(
      rt!.messages.map((m) => m.expertId),
      ["aisha", "noah", "priya", "aisha", "noah", "priya", "aisha", "noah", "priya"],
    );
    assert.ok(rt!.minutes);
  } finally {
    await stopCrashedAndSuccessor(first, second);
    await llm.close();
    await Deno.remove(dir, { recursive: true });
  }
});

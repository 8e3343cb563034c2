/**
 * Crash safety with real processes: `main.ts` runs a debate on a temp KV file and is
 * killed with SIGKILL mid-debate; a second `main.ts` on the same file continues it to 10
 * messages and a synthesis.
 */
import assert from "node:assert/strict";
import { type FakeCall, startFakeLlm, textOfLength, VALID_SYNTHESIS } from "../helpers/fake_llm.ts";
import {
  debateMidway,
  localMainEnv,
  localSignIn,
  spawnMainDrained,
  stopCrashedAndSuccessor,
  waitHealthy,
} from "../helpers/processes.ts";

Deno.test("a debate whose process is killed with SIGKILL mid-way is completed by a second process on the same KV file: 10 messages and a synthesis", async () => {
  const dir = await Deno.makeTempDir();
  const kvPath = `${dir}/kv.sqlite`;
  const llm = startFakeLlm((c: FakeCall) =>
    c.stream
      ? { text: textOfLength(150, `c${c.index}w`), tokenDelayMs: 15 }
      : { text: VALID_SYNTHESIS }
  );
  const { origin, env } = localMainEnv(kvPath, { ...llm.env, JOBS_PASS_INTERVAL_MS: "500" });
  // Everything goes through the processes' HTTP surface: the test never writes to their
  // KV file, so they may run on another Deno than the test (PARLEY_TEST_DENO, CI's 2.5 pass).
  let second: Deno.ChildProcess | null = null;
  const first = spawnMainDrained(env);
  try {
    await waitHealthy(origin, 20_000);
    const cookie = (await localSignIn(origin, "provider_a", { account: "a-1001" })).header();
    // Mid-way: three messages done and the fourth streaming.
    const { id, seen } = await debateMidway(origin, cookie);
    first.kill("SIGKILL");
    const killedAt = Date.now();
    await first.status;

    second = spawnMainDrained(env);
    await waitHealthy(origin, 20_000);
    let debate: {
      status: string;
      messages: { role: string; content: string }[];
      synthesis: unknown;
    } | null = null;
    const deadline = Date.now() + 45_000;
    while (Date.now() < deadline) {
      const r = await fetch(`${origin}/api/debates/${id}`, { headers: { cookie } });
      debate = await r.json();
      if (debate!.status !== "in_progress") break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const tookMs = Date.now() - killedAt;
    console.log(`killed → completed by the second process in ${tookMs} ms`);
    assert.equal(debate!.status, "completed");
    assert.equal(debate!.messages.length, 10);
    assert.equal(new Set(debate!.messages.map((m) => m.content)).size, 10, "no message twice");
    assert.deepEqual(
      debate!.messages.map((m) => m.role),
      [...Array(10).keys()].map((i) => i % 2 ? "opponent" : "user"),
    );
    assert.deepEqual(
      debate!.messages.slice(0, 3).map((m) => m.content),
      seen.filter((e) => e.type === "message").map((e) => e.data.content),
      "the stored messages were kept, not regenerated",
    );
    assert.ok(debate!.synthesis);
  } finally {
    await stopCrashedAndSuccessor(first, second);
    await llm.close();
    await Deno.remove(dir, { recursive: true });
  }
});

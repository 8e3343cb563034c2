/**
 * Background work on KV queue messages with real processes: two `main.ts` instances on
 * one KV file run each periodic job once per interval (not once per instance), and when
 * the instance holding the schedule is killed with SIGKILL the other one takes the
 * schedule over and continues the debate the killed one was running.
 */
import assert from "node:assert/strict";
import { keys } from "@/lib/kv/keys.ts";
import type { TickRecord } from "@/lib/jobs/schedule.ts";
import { openKv } from "@/lib/kv/open.ts";
import { type FakeCall, startFakeLlm, textOfLength, VALID_SYNTHESIS } from "../helpers/fake_llm.ts";
import { freePort } from "../helpers/oauth.ts";
import {
  collectOutput,
  debateMidway,
  localSignIn,
  spawnMain,
  waitHealthy,
} from "../helpers/processes.ts";

const AVATAR_MS = 1_000;
const RESUME_MS = 500;

interface Seen {
  token: string;
  next: number;
  owner: string;
  at: number;
}

Deno.test({
  name:
    "two instances on one KV file tick once per interval; when the schedule's instance is killed the other takes the ticks over and finishes its debate",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const kvPath = `${dir}/kv.sqlite`;
    const llm = startFakeLlm((c: FakeCall) =>
      c.stream
        ? { text: textOfLength(150, `c${c.index}w`), tokenDelayMs: 15 }
        : { text: VALID_SYNTHESIS }
    );
    const ports = [freePort(), freePort()];
    const origins = ports.map((p) => `http://127.0.0.1:${p}`);
    const envOf = (port: number, origin: string) => ({
      ...llm.env,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      APP_ORIGIN: origin,
      KV_PATH: kvPath,
      LOCAL_MODE: "on",
      APP_SECRET: "deploy-test-secret-0123456789-abcdefgh",
      AVATAR_INTERVAL_MS: String(AVATAR_MS),
      DEBATE_RESUME_INTERVAL_MS: String(RESUME_MS),
    });
    // The test only reads the instances' KV file (sign-in and debates go over HTTP), so
    // they may run on another Deno than the test (PARLEY_TEST_DENO, CI's 2.5 pass).
    const kv = await openKv(kvPath, { access: "read" });
    const procs = [
      spawnMain(envOf(ports[0], origins[0])),
    ];
    const outputs = [collectOutput(procs[0])];
    // Every version of the avatar schedule, as the test's own handle sees it.
    const seen: Seen[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const v = (await kv.get<TickRecord>(keys.tick("avatar"))).value;
        if (v && seen.at(-1)?.token !== v.token) seen.push({ ...v, at: Date.now() });
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const killed = new Set<number>();
    // A load balancer's health checks on both instances (each request nudges).
    let probing = true;
    const prober = (async () => {
      while (probing) {
        await Promise.all(
          origins.map((o, i) =>
            procs[i] && !killed.has(i)
              ? fetch(`${o}/healthz`).then((r) => r.body?.cancel()).catch(() => {})
              : null
          ),
        );
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    try {
      await waitHealthy(origins[0]);
      procs.push(spawnMain(envOf(ports[1], origins[1])));
      outputs.push(collectOutput(procs[1]));
      await waitHealthy(origins[1]);

      // Both instances up: watch 6 intervals.
      const from = Date.now();
      await new Promise((r) => setTimeout(r, 6 * AVATAR_MS));
      const window = seen.filter((s) => s.at >= from);
      console.log(
        `two instances, ${6 * AVATAR_MS} ms: ${window.length} avatar ticks by ${
          new Set(window.map((s) => s.owner)).size
        } instance(s)`,
      );
      assert.ok(window.length >= 5 && window.length <= 7, `ticks: ${window.length}`);
      const gaps = seen.slice(1).map((s, i) => s.next - seen[i].next);
      assert.ok(Math.min(...gaps) >= AVATAR_MS * 0.9, `gaps ${gaps}`);

      // The instance holding the schedule runs a debate and is killed mid-way.
      const owner = seen.at(-1)!.owner;
      const victim = procs.findIndex((p) => owner.startsWith(`${p.pid}-`));
      assert.ok(victim >= 0, `owner ${owner} is one of the instances`);
      const survivor = 1 - victim;
      const cookie = (await localSignIn(origins[victim], "provider_a", { account: "a-1001" }))
        .header();
      const { id } = await debateMidway(origins[victim], cookie);
      killed.add(victim);
      procs[victim].kill("SIGKILL");
      const killedAt = Date.now();
      await procs[victim].status;

      let status = "in_progress";
      let messages = 0;
      while (Date.now() - killedAt < 30_000) {
        const d =
          await (await fetch(`${origins[survivor]}/api/debates/${id}`, { headers: { cookie } }))
            .json();
        status = d.status;
        messages = d.messages.length;
        if (status !== "in_progress") break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const doneMs = Date.now() - killedAt;
      // A few more avatar ticks, now all by the survivor.
      await new Promise((r) => setTimeout(r, 3 * AVATAR_MS));
      const after = seen.filter((s) => s.at > killedAt);
      const firstBySurvivor = after.find((s) => s.owner.startsWith(`${procs[survivor].pid}-`));
      console.log(
        `killed the schedule's instance: survivor ticked after ${
          firstBySurvivor ? firstBySurvivor.at - killedAt : "never"
        } ms, finished the debate after ${doneMs} ms`,
      );
      assert.equal(status, "completed", outputs[survivor]());
      assert.equal(messages, 10);
      assert.ok(firstBySurvivor, "the survivor took the schedule over");
      assert.ok(after.length >= 3, `ticks after the kill: ${after.length}`);
      assert.ok(
        after.every((s) => s.owner.startsWith(`${procs[survivor].pid}-`)),
        "only the survivor ticks",
      );
      const resume = (await kv.get<TickRecord>(keys.tick("debate-resume"))).value!;
      assert.ok(resume.owner.startsWith(`${procs[survivor].pid}-`), "the resumer moved too");
    } finally {
      watching = false;
      probing = false;
      await watcher;
      await prober;
      for (const [i, p] of procs.entries()) {
        if (killed.has(i)) continue;
        p.kill("SIGTERM");
        await p.status;
      }
      kv.close();
      await llm.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

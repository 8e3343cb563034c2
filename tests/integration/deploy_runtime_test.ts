/**
 * Parley as today's Deno Deploy runs it: real `main.ts` processes with
 * `DENO_DEPLOYMENT_ID` set, no flags but permissions, KV queues made to throw (a
 * `--preload` file, as Deploy does not support them), three instances on one KV file.
 * CI runs this file a second time with the instances on Deno 2.5.0, Deploy's runtime
 * (`PARLEY_TEST_DENO`): so the test process never writes to their store (a newer Deno's
 * values cannot be read by an older one) — it signs in and asks over HTTP, seeds through a
 * script run under the instances' Deno, and only reads the store.
 *
 * - they start, and the avatar answers (a periodic job of the runner);
 * - a debate and an expert panel whose instance is SIGKILLed are finished by another
 *   instance, with requests arriving and with none at all;
 * - SIGINT ends an instance in under 5 s (Deploy SIGKILLs 5 s after SIGINT) while a debate
 *   and a panel run there; another instance finishes both.
 */
import assert from "node:assert/strict";
import { keys } from "@/lib/kv/keys.ts";
import { openKv } from "@/lib/kv/open.ts";
import { ROOT } from "../helpers/app.ts";
import { type FakeCall, startFakeLlm, textOfLength, VALID_SYNTHESIS } from "../helpers/fake_llm.ts";
import { freePort } from "../helpers/oauth.ts";
import {
  collectOutput,
  debateMidway,
  localSignIn,
  spawnMain,
  testDeno,
  waitHealthy,
} from "../helpers/processes.ts";

const PRELOAD = `${ROOT}/tests/helpers/deploy_preload.ts`;

/** Debate turns streamed slowly, experts answering slowly: both are mid-way when killed. */
function slowModel(call: FakeCall) {
  const system = call.messages[0]?.content ?? "";
  if (call.stream) return { text: textOfLength(150, `c${call.index}w`), tokenDelayMs: 15 };
  if (system.includes("Pick the")) return { text: '{"experts": []}' };
  if (system.includes("expert panel")) {
    return { text: `Expert view ${call.index}: ${textOfLength(220, "e")}`, delayMs: 500 };
  }
  return { text: VALID_SYNTHESIS };
}

interface Instance {
  origin: string;
  child: Deno.ChildProcess;
  output: () => string;
  killed: boolean;
}

/** A cluster of `n` Deploy-like instances on one KV file, plus the test's own handle. */
async function cluster(n: number) {
  const dir = await Deno.makeTempDir({ prefix: "parley-deploy-rt-" });
  const kvPath = `${dir}/kv.sqlite`;
  const llm = startFakeLlm(slowModel);
  const ports = Array.from({ length: n }, () => freePort());
  const instances: Instance[] = ports.map((port) => {
    const origin = `http://127.0.0.1:${port}`;
    const child = spawnMain({
      ...llm.env,
      DENO_DEPLOYMENT_ID: "deploy-runtime-test",
      KV_PATH: kvPath,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      APP_ORIGIN: origin,
      LOCAL_MODE: "on",
      APP_SECRET: "deploy-runtime-test-secret-0123456789-abcdef",
      EXPERT_PANEL_PER_DAY: "50",
      AVATAR_INTERVAL_MS: "1000",
    }, ["-A", "--preload", PRELOAD]);
    return { origin, child, output: collectOutput(child), killed: false };
  });
  await Promise.all(instances.map((i) =>
    waitHealthy(i.origin, 60_000).catch((err) => {
      throw new Error(`${err.message}\n${i.output()}`);
    })
  ));
  // The test's own handle only reads the store (no requests, no writes).
  const kv = await openKv(kvPath, { access: "read" });
  return {
    kv,
    kvPath,
    llm,
    instances,
    kill(i: Instance, signal: Deno.Signal) {
      i.killed = true;
      i.child.kill(signal);
    },
    async close() {
      for (const i of instances) {
        if (!i.killed) i.child.kill("SIGTERM");
        await i.child.status;
      }
      kv.close();
      await llm.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Poll `read` until `done` holds (or `ms` passed); returns the last value. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let v = await read();
  while (!done(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 200));
    v = await read();
  }
  return v;
}

/** Sign in through a local provider on `origin`, as a browser does; the Cookie header. */
async function signIn(origin: string, account = "a-1001"): Promise<string> {
  return (await localSignIn(origin, "provider_a", { account })).header();
}

/** Ask a question with the panel on, through `origin`'s HTTP API. */
async function askWithPanel(origin: string, cookie: string): Promise<string> {
  const res = await fetch(`${origin}/api/questions`, {
    method: "POST",
    headers: { cookie, origin, "content-type": "application/json" },
    body: JSON.stringify({ title: "What survives a killed instance?", description: "crash" }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).id;
}

interface PanelState {
  status: string;
  step: number;
  tasks: unknown[];
}
const panelOf = (kv: Deno.Kv, id: string) => async () =>
  (await kv.get<PanelState>(keys.panelJob(id))).value;
const debateStatus = (kv: Deno.Kv, id: string) => async () =>
  (await kv.get<{ status: string; messageCount: number }>(keys.debate(id))).value;

/** Count a question's expert messages straight from the store. */
async function expertMessages(kv: Deno.Kv, id: string): Promise<number> {
  let n = 0;
  for await (const e of kv.list<string>({ prefix: ["question_messages", id] })) {
    const m = (await kv.get<{ authorType: string }>(keys.message(e.value))).value;
    if (m?.authorType === "ai") n++;
  }
  return n;
}

/** A debate and a panel on `origin`, both mid-way (3 messages; at least one expert wrote). */
async function debateAndPanelMidway(kv: Deno.Kv, origin: string) {
  const cookie = await signIn(origin);
  const qid = await askWithPanel(origin, cookie);
  const { id } = await debateMidway(origin, cookie);
  const midway = await until(panelOf(kv, qid), (p) => (p?.step ?? 0) >= 1, 20_000);
  assert.ok(midway && midway.status === "running", JSON.stringify(midway));
  return { debateId: id, questionId: qid };
}

/** Wait (≤ 60 s) for both to finish, and check they finished whole and once. */
async function assertBothFinished(
  kv: Deno.Kv,
  ids: { debateId: string; questionId: string },
  log: string,
) {
  const debate = await until(
    debateStatus(kv, ids.debateId),
    (d) => d?.status !== "in_progress",
    60_000,
  );
  const panel = await until(panelOf(kv, ids.questionId), (p) => p?.status === "done", 60_000);
  assert.equal(debate?.status, "completed", log);
  assert.equal(debate?.messageCount, 10);
  assert.equal(panel?.status, "done", log);
  assert.equal(await expertMessages(kv, ids.questionId), panel!.tasks.length, "every expert once");
}

Deno.test({
  name:
    "like Deploy (DENO_DEPLOYMENT_ID, no queues, 3 instances): they start, the avatar answers, and a SIGKILLed instance's debate is finished by another while requests arrive",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const c = await cluster(3);
    let probing = true;
    try {
      // The avatar: a user with it on, a question older than a minute (seeded under the
      // instances' own Deno).
      const deno = testDeno();
      const seeded = await new Deno.Command(deno.command, {
        args: [...deno.args, "run", "-A", `${ROOT}/tests/helpers/deploy_seed.ts`, c.kvPath],
        cwd: ROOT,
        stderr: "inherit",
      }).output();
      assert.ok(seeded.success, "seeded");
      const { avaId, questionId } = JSON.parse(new TextDecoder().decode(seeded.stdout));
      const cookie = await signIn(c.instances[1].origin);
      const answered = await until(
        async () => (await c.kv.get(keys.avatarAnswered(avaId, questionId))).value,
        (v) => v !== null,
        20_000,
      );
      assert.ok(
        answered,
        `the avatar answered\n${c.instances.map((i) => i.output()).join("\n---\n")}`,
      );

      // A debate on instance 0, killed mid-way; a load balancer's checks reach the others.
      const [victim, ...others] = c.instances;
      const prober = (async () => {
        while (probing) {
          await Promise.all(
            others.map((o) =>
              fetch(`${o.origin}/healthz`).then((r) => r.body?.cancel()).catch(() => {})
            ),
          );
          await new Promise((r) => setTimeout(r, 200));
        }
      })();
      const { id } = await debateMidway(victim.origin, cookie);
      c.kill(victim, "SIGKILL");
      const killedAt = Date.now();
      await victim.child.status;
      const debate = await until(
        debateStatus(c.kv, id),
        (d) => d?.status !== "in_progress",
        45_000,
      );
      console.log(
        `SIGKILL with traffic: the debate was finished ${Date.now() - killedAt} ms later`,
      );
      assert.equal(debate?.status, "completed", others.map((o) => o.output()).join("\n"));
      assert.equal(debate?.messageCount, 10);
      probing = false;
      await prober;
      for (const o of [victim, ...others]) {
        assert.doesNotMatch(o.output(), /not supported on Deno Deploy/, "no KV queue is used");
      }
    } finally {
      probing = false;
      await c.close();
    }
  },
});

Deno.test({
  name:
    "like Deploy, with no request at all: a SIGKILLed instance's debate and expert panel are finished by another instance",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const c = await cluster(2);
    try {
      const [victim, survivor] = c.instances;
      const ids = await debateAndPanelMidway(c.kv, victim.origin);
      c.kill(victim, "SIGKILL");
      const killedAt = Date.now();
      await victim.child.status;
      // From here on nobody sends a request: only the survivor's own timer (and cron).
      await assertBothFinished(c.kv, ids, survivor.output());
      console.log(`SIGKILL without traffic: finished ${Date.now() - killedAt} ms later`);
      assert.match(survivor.output(), /resuming (debate|panel)/);
    } finally {
      await c.close();
    }
  },
});

Deno.test({
  name:
    "like Deploy: SIGINT ends an instance in under 5 s with a debate and a panel running there; another instance finishes both",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const c = await cluster(2);
    try {
      const [stopping, other] = c.instances;
      const ids = await debateAndPanelMidway(c.kv, stopping.origin);
      const sent = performance.now();
      c.kill(stopping, "SIGINT");
      const status = await stopping.child.status;
      const stopMs = performance.now() - sent;
      console.log(`SIGINT → exit in ${Math.round(stopMs)} ms`);
      assert.equal(status.code, 0, stopping.output());
      assert.ok(stopMs < 5_000, `stopped in ${stopMs} ms`);
      assert.match(stopping.output(), /Parley stopped/);
      const releasedAt = Date.now();
      await assertBothFinished(c.kv, ids, other.output());
      console.log(
        `released jobs finished by the other instance ${Date.now() - releasedAt} ms later`,
      );
    } finally {
      await c.close();
    }
  },
});

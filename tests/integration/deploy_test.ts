/**
 * Deno Deploy conditions with the real `main.ts` as a child process: `DENO_DEPLOYMENT_ID`
 * set, `KV_PATH` unset (so `Deno.openKv()` opens the default database — on this machine a
 * SQLite file under `DENO_DIR`), `DENO_DIR` in a temp folder, and write permission limited
 * to that folder. It serves `/healthz`, signs in through the local providers over HTTP,
 * asks, answers, votes, favorites and debates (offline stand-in model), and nothing is
 * written outside the temp folder (a write elsewhere would be a permission error → 500).
 */
import assert from "node:assert/strict";
import { freePort } from "../helpers/oauth.ts";
import { collectOutput, localSignIn, spawnMain, step, waitHealthy } from "../helpers/processes.ts";
import { parseSse } from "../helpers/sse.ts";

/** Every file under `dir` (relative paths), following no symlinks. */
async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isSymlink) continue;
    if (e.isDirectory) out.push(...await filesUnder(`${dir}/${e.name}`, `${prefix}${e.name}/`));
    else out.push(`${prefix}${e.name}`);
  }
  return out;
}

Deno.test({
  name:
    "on Deploy (DENO_DEPLOYMENT_ID, no KV_PATH, writes limited to DENO_DIR) main.ts opens the default KV there and every feature works",
  sanitizeResources: false,
  async fn() {
    const tmp = await Deno.makeTempDir({ prefix: "parley-deploy-" });
    const denoDir = `${tmp}/deno_dir`;
    await Deno.mkdir(denoDir);
    // The package caches come from the machine's DENO_DIR (read-only use); the app's
    // own storage (location_data) starts empty here.
    const realDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
    for (const sub of ["npm", "remote"]) {
      await Deno.symlink(`${realDir}/${sub}`, `${denoDir}/${sub}`).catch(() => {});
    }
    const port = freePort();
    const origin = `http://127.0.0.1:${port}`;
    const child = spawnMain({
      DENO_DEPLOYMENT_ID: "test-deployment-1",
      EXPERT_PANEL_PER_DAY: "0", // threads hold exactly what this test wrote
      DENO_DIR: denoDir,
      HOME: tmp,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      APP_ORIGIN: origin,
      LOCAL_MODE: "on",
    }, [
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--allow-sys",
      `--allow-write=${tmp}`,
    ]);
    const output = collectOutput(child);
    try {
      await waitHealthy(origin).catch((err) => {
        throw new Error(`${err.message}\n${output()}`);
      });
      const health = await fetch(`${origin}/healthz`);
      assert.equal(health.status, 200);
      await health.body?.cancel();

      // The default KV is a file under the temp DENO_DIR, nowhere else.
      const files = await filesUnder(tmp);
      assert.ok(
        files.some((f) => f.startsWith("deno_dir/location_data/") && /kv\.sqlite3$/.test(f)),
        files.join("\n"),
      );

      // Two people sign in through the local providers (real HTTP, as a browser).
      const ada = await localSignIn(origin, "provider_a", { account: "a-1001" });
      const bob = await localSignIn(origin, "provider_c", { account: "c-3001" });
      const who = await (await step(origin, ada, "/api/auth/session")).json();
      assert.ok(who.user?.id, "signed in");
      const write = (jar: typeof ada, path: string, body: unknown) =>
        step(origin, jar, path, {
          method: "POST",
          headers: { origin, "content-type": "application/json" },
          body: JSON.stringify(body),
        });

      // Ask, answer, vote, favorite.
      const asked = await write(ada, "/api/questions", {
        title: "Does Parley run on Deno Deploy?",
        description: "With the platform's KV and no file writes.",
        tags: ["deploy"],
      });
      assert.equal(asked.status, 201, await asked.clone().text());
      const question = await asked.json();
      const answered = await write(bob, `/api/questions/${question.id}/messages`, {
        content: "It does: the build happens before, the server only reads.",
      });
      assert.equal(answered.status, 201, await answered.clone().text());
      const message = await answered.json();
      const vote = await write(bob, "/api/likes", {
        targetId: question.id,
        targetType: "question",
        voteType: "up",
      });
      assert.equal(vote.status, 200, await vote.clone().text());
      const fav = await write(ada, "/api/favorites", {
        targetId: message.id,
        targetType: "message",
      });
      assert.ok(fav.status < 300, await fav.clone().text());
      const thread = await (await step(origin, ada, `/api/questions/${question.id}`)).json();
      assert.equal(thread.upvotes, 1);
      assert.equal(thread.messages.length, 1);
      // Pages render (feed read eventually, thread, profile).
      for (const path of ["/", `/questions/${question.id}`, "/profile", "/debate", "/skill.md"]) {
        const page = await step(origin, ada, path);
        assert.equal(page.status, 200, path);
        await page.body?.cancel();
      }
      const feed = await (await fetch(`${origin}/api/questions?sort=new`)).json();
      assert.ok(feed.questions.some((q: { id: string }) => q.id === question.id));

      // An agent key, and the agent API with it.
      const created = await write(ada, "/api/profile/agent-keys", { name: "deploy-bot" });
      assert.ok(created.status < 300, await created.clone().text());
      const { key } = await created.json();
      const agentAsk = await fetch(`${origin}/api/agent/questions/${question.id}/reply`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ content: "An agent agrees: no file writes at runtime." }),
      });
      assert.ok(agentAsk.status < 300, await agentAsk.clone().text());
      await agentAsk.body?.cancel();

      // A debate with the offline stand-in model, to the end.
      const debate = await write(ada, "/api/debate", {
        topic: "Should every app be stateless?",
        userProfile: { name: "Ada" },
      });
      assert.equal(debate.status, 200);
      const events = parseSse(await debate.text());
      assert.equal(events.filter((e) => e.type === "message").length, 10);
      assert.equal(events.at(-1)!.type, "done", JSON.stringify(events.at(-1)));

      // Nothing logged a failed write, and the server is still fine.
      assert.doesNotMatch(output(), /NotCapable|PermissionDenied|Requires write access/);
      assert.ok((await fetch(`${origin}/healthz`)).ok);
    } finally {
      child.kill("SIGTERM");
      await child.status;
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

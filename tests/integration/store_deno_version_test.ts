/**
 * A store written by a newer Deno is never read by an older one (docs/decisions.md#store-version):
 * `main.ts` on the Deno running these tests (2.9.6) writes a store through the app, then
 * `main.ts` under Deno Deploy's runtime (2.5.0, which cannot read 2.9.6's V8-serialized
 * values) is started on it and stops before its first read with one sentence naming both
 * versions — no `RangeError`, no stack.
 */
import assert from "node:assert/strict";
import { freePort } from "../helpers/oauth.ts";
import {
  collectOutput,
  denoVersionOf,
  deployDeno,
  deployDenoEnv,
  localSignIn,
  spawnMain,
  step,
  waitHealthy,
} from "../helpers/processes.ts";
import { compareDenoVersions, DENO_VERSION_KEY } from "@/lib/kv/deno_version.ts";

const older = await deployDeno();
const olderVersion = await denoVersionOf(older);
const newer = { command: Deno.execPath(), args: [] };
const newerVersion = Deno.version.deno;

Deno.test({
  name:
    `main.ts under Deno ${olderVersion} stops with one sentence, before any read, on a store Deno ${newerVersion} wrote`,
  // Only meaningful when the tests run on a Deno newer than Deploy's (2.9.6 here).
  ignore: compareDenoVersions(newerVersion, olderVersion) <= 0,
  sanitizeResources: false,
  async fn() {
    const tmp = await Deno.makeTempDir({ prefix: "parley-versions-" });
    const kvPath = `${tmp}/parley.kv`;
    const port = freePort();
    const origin = `http://127.0.0.1:${port}`;
    const env = {
      KV_PATH: kvPath,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      APP_ORIGIN: origin,
      LOCAL_MODE: "on",
      EXPERT_PANEL_PER_DAY: "0",
    };
    try {
      // The newer Deno writes through the app: a session, a question.
      const writer = spawnMain(env, ["-A"], newer);
      const writerOutput = collectOutput(writer);
      try {
        await waitHealthy(origin).catch((err) => {
          throw new Error(`${err.message}\n${writerOutput()}`);
        });
        const ada = await localSignIn(origin, "provider_a", { account: "a-1001" });
        const asked = await step(origin, ada, "/api/questions", {
          method: "POST",
          headers: { origin, "content-type": "application/json" },
          body: JSON.stringify({ title: "Which Deno wrote this store?", tags: ["deno"] }),
        });
        assert.equal(asked.status, 201, await asked.clone().text());
        await asked.body?.cancel();
      } finally {
        writer.kill("SIGTERM");
        await writer.status;
      }

      // The older Deno starts on it and stops before reading the app secret.
      const reader = spawnMain({ ...env, ...deployDenoEnv() }, ["-A"], older);
      const readerOutput = collectOutput(reader);
      const stopped = setTimeout(() => reader.kill("SIGKILL"), 60_000); // a hang is a failure
      const status = await reader.status;
      clearTimeout(stopped);
      // Let the output pumps drain what the process wrote before it exited.
      await new Promise((r) => setTimeout(r, 50));
      const output = readerOutput();
      assert.notEqual(status.code, 0, output);
      assert.equal(status.signal, null, `stopped by itself, not killed: ${output}`);
      const lines = output.split("\n").filter((l) => l.trim() && !l.startsWith("npm warn"));
      assert.equal(lines.length, 1, output);
      assert.ok(
        lines[0].includes(
          `Deno ${newerVersion} has written to it and this is Deno ${olderVersion}`,
        ),
        output,
      );
      assert.match(
        lines[0],
        new RegExp(`run under Deno ${newerVersion.replaceAll(".", "\\.")} or newer`),
      );
      assert.doesNotMatch(output, /RangeError/);
      assert.doesNotMatch(output, /^ {4}at /m);
      assert.doesNotMatch(output, /listening/);

      // The record is still the newer version: the older process wrote nothing.
      const kv = await Deno.openKv(kvPath);
      const { value } = await kv.get(DENO_VERSION_KEY);
      kv.close();
      assert.equal(new TextDecoder().decode(value as Uint8Array), newerVersion);
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

/**
 * Local mode signs anyone in as any local account (the Moderator too), so a real main.ts
 * process in local mode without HOSTNAME listens on 127.0.0.1 only and its start line
 * says so; with HOSTNAME set it listens where told and the line warns.
 */
import assert from "node:assert/strict";
import { collectOutput, spawnMain } from "../helpers/processes.ts";
import { freePort } from "../helpers/oauth.ts";

/** This machine's first non-loopback IPv4 address, if it has one. */
function lanAddress(): string | null {
  return Deno.networkInterfaces().find((i) => i.family === "IPv4" && !i.address.startsWith("127."))
    ?.address ?? null;
}

async function reachable(hostname: string, port: number): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname, port });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

async function startLocal(env: Record<string, string>) {
  const dir = await Deno.makeTempDir();
  const port = freePort();
  const child = spawnMain({ PORT: String(port), KV_PATH: `${dir}/p.kv`, LOCAL_MODE: "on", ...env });
  const output = collectOutput(child);
  const end = Date.now() + 60_000;
  while (!output().includes("listening on")) {
    if (Date.now() > end) throw new Error(`no start line: ${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    line: output().split("\n").find((l) => l.includes("listening on"))!,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test({
  name: "local mode without HOSTNAME listens on 127.0.0.1 only, and the start line says so",
  sanitizeResources: false,
  async fn() {
    const p = await startLocal({});
    try {
      assert.match(p.line, new RegExp(`http://127\\.0\\.0\\.1:${p.port} — local mode`));
      assert.match(p.line, /only this computer can reach it \(set HOSTNAME=0\.0\.0\.0/);
      assert.equal((await fetch(`http://127.0.0.1:${p.port}/healthz`)).status, 200);
      const lan = lanAddress();
      if (lan) assert.equal(await reachable(lan, p.port), false, `not reachable on ${lan}`);
    } finally {
      await p.stop();
    }
  },
});

Deno.test({
  name: "local mode with HOSTNAME=0.0.0.0 listens on every address, and the start line warns",
  sanitizeResources: false,
  async fn() {
    const p = await startLocal({ HOSTNAME: "0.0.0.0" });
    try {
      assert.match(p.line, new RegExp(`http://0\\.0\\.0\\.0:${p.port} — local mode`));
      assert.match(p.line, /open to your network because HOSTNAME is set/);
      const lan = lanAddress();
      if (lan) assert.equal(await reachable(lan, p.port), true, `reachable on ${lan}`);
    } finally {
      await p.stop();
    }
  },
});

/** Where a backup may be written: the store is found under any of its names. */
import assert from "node:assert/strict";
import { relative } from "node:path";
import { checkBackupTarget } from "./backup_target.ts";

Deno.test("checkBackupTarget() knows the store by a relative KV_PATH and by an absolute target", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = `${dir}/parley.kv`;
    const kv = await Deno.openKv(store);
    kv.close();
    const storePath = relative(Deno.cwd(), store);
    for (const target of [store, `${store}-wal`, `${dir}/./parley.kv-shm`]) {
      const check = await checkBackupTarget(target, { storePath, force: true });
      assert.ok(!check.ok && check.reason.includes("is the store being backed up"), target);
    }
    // A new file beside it is fine; the store's own name is not, whatever KV_PATH says.
    assert.deepEqual(await checkBackupTarget(`${dir}/new.gz`, { storePath }), { ok: true });
    const remote = await checkBackupTarget(store, {
      storePath: "https://api.deno.com/databases/x/connect",
      force: true,
    });
    assert.ok(!remote.ok && remote.reason.includes("is an SQLite database"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

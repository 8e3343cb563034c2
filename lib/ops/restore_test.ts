/** Restoring a backup file: batches KV accepts, whatever the entries' sizes. */
import assert from "node:assert/strict";
import { backupStore } from "./backup.ts";
import { entryLine } from "./backup_format.ts";
import { restoreStore } from "./restore.ts";

async function lines(kv: Deno.Kv): Promise<string[]> {
  const out: string[] = [];
  for await (const e of kv.list({ prefix: [] })) out.push(entryLine(e.key, e.value));
  return out;
}

Deno.test("restoreStore() writes large values and long keys in ops KV accepts", async () => {
  const dir = await Deno.makeTempDir();
  const source = await Deno.openKv(":memory:");
  // 120 values near KV's 64 KiB limit (7.5 MB, far over one op's 800 KB) and 200 keys near
  // the 2 KiB key limit (far over one op's 80 KiB of keys): a count-only batch would fail.
  for (let i = 0; i < 120; i++) {
    await source.set(["big", i], Array.from({ length: 7000 }, (_, j) => i + j + 0.5));
  }
  for (let i = 0; i < 200; i++) await source.set(["long", `${i}`.padStart(2000, "k")], i);
  const file = `${dir}/big.backup.gz`;
  const backup = await backupStore(source, file);
  assert.equal(backup.entries, 320);

  const target = await Deno.openKv(":memory:");
  const outcome = await restoreStore(target, file);
  assert.ok(outcome.ok, outcome.ok ? "" : outcome.reason);
  assert.equal(outcome.written, 320);
  assert.deepEqual(await lines(target), await lines(source));
  source.close();
  target.close();
  await Deno.remove(dir, { recursive: true });
});

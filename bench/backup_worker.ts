/**
 * One measured step of the backup benchmark (bench/backup.ts), in a process of its own so
 * its peak memory is its own: `deno run -A bench/backup_worker.ts <step> <store> <file>
 * <target>` prints one JSON line `{entries, ms, peakRssMb, heapMb}`.
 *
 * Steps: `walk` (a plain `kv.list` of the whole store: the backup's floor), `backup`
 * (lib/ops/backup.ts to `file`), `copy` (every entry of the store written into `target`
 * in batches of 500: the restore's floor), `restore` (lib/ops/restore.ts of `file` into
 * `target`), `fsck` (lib/ops/fsck check of the store).
 *
 * Peak RSS is the kernel's high-water mark (`VmHWM`, Linux), else the largest RSS sampled
 * every 50 ms; heap is V8's largest used heap sampled the same way.
 *
 * @module
 */
import { commit } from "../lib/kv/atomic.ts";
import { backupStore } from "../lib/ops/backup.ts";
import { runFsck } from "../lib/ops/fsck/run.ts";
import { restoreStore } from "../lib/ops/restore.ts";

const [step, store, file, target] = Deno.args;

let rss = 0;
let heap = 0;
const sample = () => {
  const m = Deno.memoryUsage();
  rss = Math.max(rss, m.rss);
  heap = Math.max(heap, m.heapUsed);
};
const sampler = setInterval(sample, 50);

/** The kernel's peak RSS of this process in bytes, or null off Linux. */
async function highWaterMark(): Promise<number | null> {
  try {
    const status = await Deno.readTextFile("/proc/self/status");
    const m = /VmHWM:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

async function run(): Promise<number> {
  switch (step) {
    case "walk": {
      const kv = await Deno.openKv(store);
      let n = 0;
      for await (const _ of kv.list({ prefix: [] }, { batchSize: 500 })) n++;
      kv.close();
      return n;
    }
    case "backup": {
      const kv = await Deno.openKv(store);
      const { entries } = await backupStore(kv, file);
      kv.close();
      return entries;
    }
    case "copy": {
      const kv = await Deno.openKv(store);
      const out = await Deno.openKv(target);
      let batch: Deno.KvEntry<unknown>[] = [];
      let n = 0;
      const flush = async () => {
        const rows = batch;
        batch = [];
        await commit(out, (op) => rows.forEach((e) => op.set(e.key, e.value)));
      };
      for await (const e of kv.list({ prefix: [] }, { batchSize: 500 })) {
        batch.push(e);
        n++;
        if (batch.length === 500) await flush();
      }
      await flush();
      kv.close();
      out.close();
      return n;
    }
    case "restore": {
      const kv = await Deno.openKv(target);
      const outcome = await restoreStore(kv, file);
      kv.close();
      if (!outcome.ok) throw new Error(outcome.reason);
      return outcome.entries;
    }
    case "fsck": {
      const kv = await Deno.openKv(store);
      const { clean, found } = await runFsck(kv);
      let n = 0;
      for await (const _ of kv.list({ prefix: [] }, { batchSize: 1000 })) n++;
      kv.close();
      if (!clean) throw new Error(found.lines().join("\n"));
      return n;
    }
    default:
      throw new Error(`unknown step ${step}`);
  }
}

const start = performance.now();
const entries = await run();
const ms = performance.now() - start;
clearInterval(sampler);
sample();
const peak = (await highWaterMark()) ?? rss;
console.log(JSON.stringify({ entries, ms, peakRssMb: peak / 1e6, heapMb: heap / 1e6 }));

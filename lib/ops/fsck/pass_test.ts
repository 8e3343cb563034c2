/** Entry passes: suspects confirmed on a fresh read; a repair that races a writer yields. */
import assert from "node:assert/strict";
import { runPass } from "./pass.ts";
import { FsckReport } from "./report.ts";

/** A pass over `["rows"]`: each row must name an existing `["recs", id]`. */
function rowsPass(onJudge?: (id: string) => Promise<void>) {
  return {
    invariant: "t",
    label: "rows",
    prefix: ["rows"],
    reads: (e: Deno.KvEntry<string>) => [["recs", e.value]],
    judge: async (e: Deno.KvEntry<string>, [rec]: Deno.KvEntryMaybe<unknown>[]) => {
      await onJudge?.(e.value);
      return rec.versionstamp ? [] : [{
        kind: "dangling",
        removes: true,
        fix: (op: Deno.AtomicOperation) => op.delete(e.key),
      }];
    },
  };
}

Deno.test("a pass reports dangling rows and a repair removes them, many in one op", async () => {
  const kv = await Deno.openKv(":memory:");
  for (let i = 0; i < 250; i++) {
    await kv.set(["rows", i], `r${i}`);
    if (i % 5 === 0) await kv.set(["recs", `r${i}`], true);
  }
  const check = new FsckReport();
  await runPass(kv, check, false, rowsPass());
  assert.equal(check.count("t", "dangling"), 200);
  const repair = new FsckReport();
  let ops = 0;
  const counting = new Proxy(kv, {
    get(target, prop) {
      if (prop === "atomic") ops++;
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  await runPass(counting, repair, true, rowsPass());
  assert.equal(repair.fixed, 200);
  assert.ok(ops <= 10, `${ops} ops for 200 fixes`);
  let left = 0;
  for await (const _ of kv.list({ prefix: ["rows"] })) left++;
  assert.equal(left, 50);
  kv.close();
});

Deno.test("a write that lands between the judgement and the repair is judged again, never undone", async () => {
  const kv = await Deno.openKv(":memory:");
  await kv.set(["rows", 1], "late");
  await kv.set(["rows", 2], "gone");
  let raced = 0;
  // The record of "late" is written (by "another process") right after each judgement
  // of it: the repair's check on it fails, and the fresh judgement finds the row fine.
  const spec = rowsPass(async (id) => {
    if (id === "late" && raced++ === 1) await kv.set(["recs", "late"], true);
  });
  const report = new FsckReport();
  await runPass(kv, report, true, spec);
  assert.equal(report.count("t", "dangling"), 1, report.lines().join("\n"));
  assert.equal((await kv.get(["rows", 1])).value, "late", "the raced row stays");
  assert.ok(raced >= 3, "judged, judged afresh with the write, judged again after the lost check");
  assert.equal((await kv.get(["rows", 2])).versionstamp, null);
  kv.close();
});

/** Counter tallies: recounts settle against a snapshot and never overwrite a writer's move. */
import assert from "node:assert/strict";
import { counterValue } from "../../kv/atomic.ts";
import { FsckReport } from "./report.ts";
import { withTally } from "./tally.ts";

const u64 = (n: number) => new Deno.KvU64(BigInt(n));

Deno.test("a tally reports counters that differ from the recount and a repair sets them", async () => {
  const kv = await Deno.openKv(":memory:");
  await kv.set(["c", "a"], u64(2)); // right
  await kv.set(["c", "b"], u64(5)); // recount 3
  await kv.set(["c", "z"], u64(4)); // nothing counted: 0, so removed
  await kv.set(["peak", "p"], u64(9)); // a peak above the recount is fine
  await kv.set(["peak", "q"], u64(1)); // below: raised
  for (const repair of [false, true]) {
    const report = new FsckReport();
    await withTally(
      { rule: (key) => key[0] === "peak" ? "atLeast" : "equal" },
      async (tally) => {
        await tally.snapshot(kv, ["c"]);
        await tally.snapshot(kv, ["peak"]);
        for (const k of ["a", "a", "b", "b", "b", "y"]) await tally.add(["c", k]);
        await tally.raise(["peak", "p"], 3);
        await tally.raise(["peak", "q"], 6);
        await tally.settle(kv, report, { invariant: "t", kind: (k) => String(k[0]), repair });
      },
    );
    assert.equal(report.count("t", "c"), 3, report.lines().join("\n")); // b, y, z
    assert.equal(report.count("t", "peak"), 1);
    assert.equal(report.fixed, repair ? 4 : 0);
  }
  const [a, b, y, z, p, q] = await kv.getMany([
    ["c", "a"],
    ["c", "b"],
    ["c", "y"],
    ["c", "z"],
    ["peak", "p"],
    ["peak", "q"],
  ]);
  assert.deepEqual(
    [a, b, y, p, q].map((e) => counterValue(e.value)),
    [2, 3, 1, 9, 6],
  );
  assert.equal(z.versionstamp, null);
  kv.close();
});

Deno.test("a counter a writer moves during the recount is left alone, not overwritten", async () => {
  const kv = await Deno.openKv(":memory:");
  await kv.set(["c", "hot"], u64(10));
  const report = new FsckReport();
  await withTally({}, async (tally) => {
    await tally.snapshot(kv, ["c"]);
    await tally.add(["c", "hot"], 3); // a stale recount…
    await kv.atomic().sum(["c", "hot"], 1n).commit(); // …while a writer moves it
    await tally.settle(kv, report, { invariant: "t", kind: "differs", repair: true });
  });
  assert.ok(report.clean);
  assert.equal(report.moved, 1);
  assert.equal(counterValue((await kv.get(["c", "hot"])).value), 11, "the writer's move stands");
  kv.close();
});

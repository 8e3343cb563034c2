import assert from "node:assert/strict";
import { coalesce, coalescer } from "@/lib/coalesce.ts";

Deno.test("coalesce(): callers arriving during a run share the next run, one run per key at a time", async () => {
  const runs: number[][] = [];
  let inFlight = 0;
  let most = 0;
  const c = coalescer<number>(async (_key, items) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, 5));
    runs.push([...items]);
    inFlight--;
  });
  const first = coalesce(c, "k", 0);
  await Promise.resolve();
  await Promise.resolve();
  const rest = Array.from({ length: 20 }, (_, i) => coalesce(c, "k", i + 1));
  await Promise.all([first, ...rest]);
  assert.equal(most, 1);
  assert.deepEqual(runs.flat().sort((x, y) => x - y), Array.from({ length: 21 }, (_, i) => i));
  assert.ok(runs.length <= 2, `${runs.length} runs`);
  assert.equal(c.keys.size, 0, "idle keys are dropped");
});

Deno.test("coalesce(): a failed run rejects its own callers only", async () => {
  const c = coalescer<string>((_key, items) =>
    items.includes("bad") ? Promise.reject(new Error("boom")) : Promise.resolve()
  );
  await assert.rejects(coalesce(c, "k", "bad"));
  await coalesce(c, "k", "good");
});

import assert from "node:assert/strict";
import { batched, batcher } from "@/lib/kv/batch.ts";

Deno.test("batched(): callers arriving during a run share the next run, one run per key at a time", async () => {
  const runs: number[][] = [];
  let inFlight = 0;
  let most = 0;
  const b = batcher<number>(async (_key, items) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, 5));
    runs.push([...items]);
    inFlight--;
  });
  const first = batched(b, "k", 0);
  await Promise.resolve();
  await Promise.resolve();
  const rest = Array.from({ length: 20 }, (_, i) => batched(b, "k", i + 1));
  await Promise.all([first, ...rest]);
  assert.equal(most, 1);
  assert.deepEqual(runs.flat().sort((x, y) => x - y), Array.from({ length: 21 }, (_, i) => i));
  assert.ok(runs.length <= 2, `${runs.length} runs`);
  assert.equal(b.lanes.size, 0, "idle lanes are dropped");
});

Deno.test("batched(): a failed run rejects its own callers only", async () => {
  const b = batcher<string>((_key, items) =>
    items.includes("bad") ? Promise.reject(new Error("boom")) : Promise.resolve()
  );
  await assert.rejects(batched(b, "k", "bad"));
  await batched(b, "k", "good");
});

import assert from "node:assert/strict";
import { handling } from "../http/busy.ts";
import { FANOUT_YIELD_MS, inTurn } from "./fanout.ts";

Deno.test("fan-out batches take turns, each told how many wait behind it", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const order: string[] = [];
    const behind: number[] = [];
    let writing = 0;
    const batch = (name: string) => async (n: number) => {
      assert.equal(writing++, 0, "one batch writes at a time");
      order.push(name);
      behind.push(n);
      await new Promise((r) => setTimeout(r, 3));
      writing--;
      return name;
    };
    const done = await Promise.all([
      inTurn(kv, batch("a")),
      inTurn(kv, batch("b")),
      inTurn(kv, batch("c")),
    ]);
    assert.deepEqual(done, ["a", "b", "c"]);
    assert.deepEqual(order, ["a", "b", "c"]);
    // The first knew of two more (a backlog: larger batches), the last of none.
    assert.deepEqual(behind, [2, 1, 0]);
  } finally {
    kv.close();
  }
});

Deno.test("a fan-out batch waits while this process makes a response", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const response = Promise.withResolvers<Response>();
    const served = handling(response.promise);
    let ran = false;
    const turn = inTurn(kv, () => Promise.resolve(ran = true));
    await new Promise((r) => setTimeout(r, Math.min(20, FANOUT_YIELD_MS / 2)));
    assert.equal(ran, false, "the request in making goes first");
    response.resolve(new Response("answered"));
    await served;
    await turn;
    assert.equal(ran, true);
  } finally {
    kv.close();
  }
});

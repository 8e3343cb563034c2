import assert from "node:assert/strict";
import { handling, responsesInMaking, untilIdle } from "./busy.ts";

Deno.test("a response counts while it is being made, and not after it settled", async () => {
  assert.equal(responsesInMaking(), 0);
  const made = Promise.withResolvers<Response>();
  const served = handling(made.promise);
  assert.equal(responsesInMaking(), 1);
  made.resolve(new Response("ok"));
  assert.equal(await (await served).text(), "ok");
  assert.equal(responsesInMaking(), 0);
  // A handler that throws counts off too.
  await assert.rejects(handling(Promise.reject(new Error("boom"))), /boom/);
  assert.equal(responsesInMaking(), 0);
});

Deno.test("background work waits for the last response in making, within its bound", async () => {
  await untilIdle(10_000); // nothing in making: at once

  const first = Promise.withResolvers<string>();
  const second = Promise.withResolvers<string>();
  const a = handling(first.promise);
  const b = handling(second.promise);
  let idle = false;
  const waited = untilIdle(10_000).then(() => idle = true);
  first.resolve("a");
  await a;
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(idle, false, "one response is still being made");
  second.resolve("b");
  await b;
  await waited;
  assert.equal(idle, true);

  // Under constant load it goes ahead once its bound has passed.
  const endless = Promise.withResolvers<string>();
  const c = handling(endless.promise);
  const started = performance.now();
  await untilIdle(30);
  assert.ok(performance.now() - started >= 25, "it waited for its bound");
  assert.equal(responsesInMaking(), 1);
  endless.resolve("c");
  await c;
});

Deno.test("background work waits for a quiet moment after the last response, not just its end", async () => {
  const made = Promise.withResolvers<string>();
  const served = handling(made.promise);
  made.resolve("done");
  await served;
  // Just made: not quiet for 40 ms yet.
  const started = performance.now();
  assert.equal(await untilIdle(10_000, 40), true);
  assert.ok(performance.now() - started >= 35, "it waited out the quiet window");
  // Another response within the window starts it over.
  await handling(Promise.resolve("first"));
  const next = Promise.withResolvers<string>();
  let quietAt = 0;
  const waited = untilIdle(10_000, 40).then(() => quietAt = performance.now());
  await new Promise((r) => setTimeout(r, 10));
  const again = handling(next.promise);
  await new Promise((r) => setTimeout(r, 10));
  next.resolve("again");
  await again;
  const lastEnd = performance.now();
  await waited;
  assert.ok(quietAt - lastEnd >= 35, "quiet counted from the later response");
  // A bound shorter than the window: it gives up and says so.
  const gaveUp = handling(Promise.resolve("x")).then(() => untilIdle(5, 1_000));
  assert.equal(await gaveUp, false);
});

/** FailureLog: a failure that repeats is logged once per period, and its recovery once. */
import assert from "node:assert/strict";
import { FailureLog } from "./failure_log.ts";

Deno.test("FailureLog logs the first failure, counts repeats within the period, and logs the recovery", () => {
  let t = 0;
  const errors: string[] = [];
  const infos: string[] = [];
  const log = new FailureLog({
    now: () => t,
    repeatMs: 1_000,
    error: (...d) => void errors.push(d.join(" ")),
    info: (...d) => void infos.push(d.join(" ")),
  });
  const full = new TypeError("database or disk is full");
  for (let i = 0; i < 50; i++) log.failed("Job runner: pass", full);
  assert.deepEqual(errors, ["Job runner: pass failed: database or disk is full"]);
  t = 1_000;
  log.failed("Job runner: pass", full);
  assert.equal(
    errors[1],
    "Job runner: pass failed (49 more failures since the last line): database or disk is full",
  );
  log.failed("Job runner: pass", full);
  log.succeeded("Job runner: pass");
  log.succeeded("Job runner: pass"); // nothing was failing any more
  assert.deepEqual(infos, ["Job runner: pass works again (1 more failure since the last line)"]);
  log.failed("Job runner: pass", full); // a new outage is logged at once
  assert.equal(errors.length, 3);
});

/**
 * Helpers for the job runner's tests (lib/jobs/*_test.ts): a hand-moved clock, a job
 * created in one op, and a hang guard.
 */
import assert from "node:assert/strict";
import type { JobRunner } from "@/lib/jobs/runner.ts";

/** A clock the test moves by hand. */
export function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => number } {
  let t = start;
  return { now: () => t, advance: (ms: number) => t += ms };
}

/** Create the job `kind/id`, held by `runner`, in one op (as a request creating work does). */
export async function createJob(
  kv: Deno.Kv,
  runner: JobRunner,
  kind: string,
  id: string,
): Promise<void> {
  assert.ok((await runner.newJobOps(kv.atomic(), kind, id).commit()).ok);
}

/** `p`, or a failure when it is still pending after a generous bound (a hang guard). */
export async function settlesWithin<T>(p: Promise<T>, what: string, boundMs = 10_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stuck = new Promise<never>((_, reject) =>
    timer = setTimeout(() => reject(new Error(`still pending: ${what}`)), boundMs)
  );
  try {
    return await Promise.race([p, stuck]);
  } finally {
    clearTimeout(timer);
  }
}

/** KV helpers: atomic commits, conflict-free counters, newest-first paging. */
import assert from "node:assert/strict";
import {
  addToCounter,
  checksAddedBy,
  checksHold,
  commit,
  invertTime,
  listNewestFirst,
  readCounters,
  updateAtomically,
} from "@/lib/kv/atomic.ts";
import { openKv } from "@/lib/kv/open.ts";

Deno.test("commit() writes all keys at once through the retry wrapper", async () => {
  const kv = await openKv(":memory:");
  try {
    const res = await commit(kv, (op) => op.set(["a"], 1).set(["b"], 2));
    assert.equal(res.ok, true);
    const [a, b] = await kv.getMany([["a"], ["b"]]);
    assert.deepEqual([a.value, b.value], [1, 2]);
  } finally {
    kv.close();
  }
});

Deno.test("addToCounter() adds and subtracts concurrently without conflicts", async () => {
  const kv = await openKv(":memory:");
  try {
    const key = ["counters", "votes"];
    const ups = Array.from({ length: 150 }, () => commit(kv, (op) => addToCounter(op, key, 1)));
    const downs = Array.from({ length: 50 }, () => commit(kv, (op) => addToCounter(op, key, -1)));
    const results = await Promise.all([...ups, ...downs]);
    assert.ok(results.every((r) => r.ok));
    assert.deepEqual(await readCounters(kv, [key, ["counters", "missing"]]), [100, 0]);
    await commit(kv, (op) => addToCounter(op, key, -130));
    assert.deepEqual(await readCounters(kv, [key]), [-30]);
  } finally {
    kv.close();
  }
});

Deno.test("updateAtomically() retries lost checks so every increment lands", async () => {
  const kv = await openKv(":memory:");
  try {
    await Promise.all(Array.from({ length: 40 }, () =>
      updateAtomically(async () => {
        const cur = await kv.get<number>(["n"]);
        return { op: kv.atomic().check(cur).set(["n"], (cur.value ?? 0) + 1), result: null };
      })));
    assert.equal((await kv.get<number>(["n"])).value, 40);
  } finally {
    kv.close();
  }
});

Deno.test("checksAddedBy() records the checks a caller adds; checksHold() tells when one no longer holds", async () => {
  const kv = await openKv(":memory:");
  try {
    await kv.set(["lease"], "token-1");
    const lease = await kv.get<string>(["lease"]);
    const op = kv.atomic().check({ key: ["own"], versionstamp: null });
    const added = checksAddedBy(op, (o) => o.check(lease).set(["progress"], 1).check(lease));
    assert.deepEqual(added.map((c) => c.key), [["lease"], ["lease"]]);
    assert.equal(Object.hasOwn(op, "check"), false, "the op's own check is back");
    assert.equal(await checksHold(kv, added), true);
    // Someone else takes the lease: the recorded checks fail, and so does the op.
    await kv.set(["lease"], "token-2");
    assert.equal(await checksHold(kv, added), false);
    assert.equal((await op.commit()).ok, false);
    assert.equal((await kv.get(["progress"])).value, null);
    // An absent key checked absent holds until it is written.
    assert.equal(await checksHold(kv, [{ key: ["own"], versionstamp: null }]), true);
  } finally {
    kv.close();
  }
});

Deno.test("listNewestFirst() lists newest first and pages with a cursor", async () => {
  const kv = await openKv(":memory:");
  try {
    const base = 1_700_000_000_000;
    for (let i = 0; i < 25; i++) {
      await kv.set(["idx", invertTime(base + i * 1000), `q${i}`], `q${i}`);
    }
    const first = await listNewestFirst<string>(kv, ["idx"], { limit: 10 });
    assert.deepEqual(first.values, Array.from({ length: 10 }, (_, i) => `q${24 - i}`));
    assert.ok(first.cursor);
    const second = await listNewestFirst<string>(kv, ["idx"], { limit: 10, cursor: first.cursor });
    assert.deepEqual(second.values, Array.from({ length: 10 }, (_, i) => `q${14 - i}`));
    const third = await listNewestFirst<string>(kv, ["idx"], { limit: 10, cursor: second.cursor });
    assert.deepEqual(third.values, ["q4", "q3", "q2", "q1", "q0"]);
    assert.equal(third.cursor, undefined);
  } finally {
    kv.close();
  }
});

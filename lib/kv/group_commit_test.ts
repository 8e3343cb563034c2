import assert from "node:assert/strict";
import { groupCommitter, type GroupSpec, submit } from "@/lib/kv/group_commit.ts";

/** An item: add `n` to the total and record it under its own key, checked as read. */
interface Add {
  who: string;
  n: number;
  /** The entry of ["mine", who] as the caller read it. */
  seen: Deno.KvEntryMaybe<number>;
}

const total = ["total"];

/** A committer of adds: checks each item's own key, one `sum` of the group's total. */
function adder(kv: Deno.Kv, over: Partial<GroupSpec<Add, string>> = {}) {
  const alone: string[] = [];
  const g = groupCommitter<Add, string>({
    kv,
    maxItems: 100,
    keyOf: (a) => a.who,
    build: (op, items) => {
      let sum = 0n;
      for (const a of items) {
        op.check(a.seen).set(["mine", a.who], a.n);
        sum += BigInt(a.n);
      }
      op.sum(total, sum);
      return items.map((a) => `grouped ${a.who}`);
    },
    single: async (a) => {
      alone.push(a.who);
      for (;;) {
        const cur = await kv.get<number>(["mine", a.who]);
        const res = await kv.atomic().check(cur).set(["mine", a.who], a.n)
          .sum(total, BigInt(a.n)).commit();
        if (res.ok) return `alone ${a.who}`;
      }
    },
    ...over,
  });
  return { g, alone };
}

async function add(kv: Deno.Kv, who: string, n: number): Promise<Add> {
  return { who, n, seen: await kv.get<number>(["mine", who]) };
}

async function totalOf(kv: Deno.Kv): Promise<bigint> {
  return (await kv.get<Deno.KvU64>(total)).value?.value ?? 0n;
}

Deno.test("group commit: items arriving while a commit is in flight go out together as one op", async () => {
  using kv = await Deno.openKv(":memory:");
  let release = () => {};
  const gate = new Promise<void>((r) => release = r);
  let building = () => {};
  const started = new Promise<void>((r) => building = r);
  const { g } = adder(kv);
  const build = g.spec.build;
  g.spec.build = async (op, items) => {
    building();
    await gate; // the first commit stays in flight until every other item has arrived
    return build(op, items);
  };
  const items = await Promise.all(Array.from({ length: 41 }, (_, i) => add(kv, `a${i}`, 1)));
  const first = submit(g, items[0]);
  await started;
  const rest = items.slice(1).map((a) => submit(g, a));
  release();
  const answers = await Promise.all([first, ...rest]);
  assert.ok(answers.every((a, i) => a === `grouped a${i}`));
  assert.equal(await totalOf(kv), 41n, "one sum of each group's total, exact");
  assert.deepEqual(g.sizes, [1, 40], "the first alone, the forty that waited in one op");
  assert.equal(g.fellBack, 0);
});

Deno.test("group commit: a failed check runs each item of the group alone, each with its own answer", async () => {
  using kv = await Deno.openKv(":memory:");
  const { g, alone } = adder(kv);
  const items = await Promise.all(["x", "y", "z"].map((w) => add(kv, w, 2)));
  // Someone else writes y's key after y read it: the group's check on it fails.
  await kv.set(["mine", "y"], 99);
  const answers = await Promise.all(items.map((a) => submit(g, a)));
  assert.deepEqual(answers, ["alone x", "alone y", "alone z"]);
  assert.deepEqual(alone.sort(), ["x", "y", "z"]);
  assert.equal(g.fellBack, 1);
  assert.equal(g.committed, 0);
  assert.equal(await totalOf(kv), 6n, "nothing of the failed group was written twice");
  assert.equal((await kv.get(["mine", "y"])).value, 2);
});

Deno.test("group commit: no group holds more than maxItems items or maxCost, and one item over maxCost still goes", async () => {
  using kv = await Deno.openKv(":memory:");
  const { g } = adder(kv, { maxItems: 7, costOf: (a) => a.n, maxCost: 10 });
  const items = await Promise.all(Array.from({ length: 50 }, (_, i) => add(kv, `c${i}`, 1)));
  await Promise.all(items.map((a) => submit(g, a)));
  assert.ok(g.sizes.every((n) => n <= 7), g.sizes.join(","));
  assert.equal(g.sizes.length, Math.ceil(50 / 7));
  const heavy = await Promise.all(
    [4, 4, 4, 20, 1].map((n, i) => add(kv, `h${i}`, n)),
  );
  g.sizes.length = 0;
  await Promise.all(heavy.map((a) => submit(g, a)));
  // 4+4 fit 10; the third 4 waits; 20 alone goes alone; 1 joins the first group.
  assert.deepEqual(g.sizes, [3, 1, 1]);
  assert.equal(await totalOf(kv), 50n + 33n);
});

Deno.test("group commit: two items with the same key never share a group nor fly at once", async () => {
  using kv = await Deno.openKv(":memory:");
  const groups: string[][] = [];
  const { g } = adder(kv, {
    maxInFlight: 2,
    build: (op, items) => {
      groups.push(items.map((a) => a.who));
      for (const a of items) op.sum(total, BigInt(a.n));
      return items.map((a) => a.who);
    },
  });
  const whos = ["u1", "u1", "u2", "u1", "u3", "u2"];
  const answers = await Promise.all(whos.map(async (w) => submit(g, await add(kv, w, 1))));
  assert.deepEqual(answers, whos);
  for (const group of groups) assert.equal(new Set(group).size, group.length, group.join(","));
  // u1's three items are in three different groups, in arrival order.
  assert.equal(groups.filter((gr) => gr.includes("u1")).length, 3);
  assert.equal(await totalOf(kv), 6n);
});

Deno.test("group commit: at most maxInFlight groups are in flight at once", async () => {
  using kv = await Deno.openKv(":memory:");
  let inFlight = 0;
  let most = 0;
  const { g } = adder(kv, {
    maxInFlight: 2,
    maxItems: 3,
    build: async (op, items) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 2));
      inFlight--;
      for (const a of items) op.sum(total, BigInt(a.n));
      return items.map((a) => a.who);
    },
  });
  await Promise.all(
    Array.from({ length: 30 }, async (_, i) => submit(g, await add(kv, `f${i}`, 1))),
  );
  assert.equal(most, 2);
  assert.equal(await totalOf(kv), 30n);
});

Deno.test("group commit: errors isolate — a build that throws falls back per item, a failing item rejects only its caller", async () => {
  using kv = await Deno.openKv(":memory:");
  const { g } = adder(kv, {
    build: (_op, items) => {
      if (items.some((a) => a.who === "bad")) throw new Error("cannot group this");
      return items.map((a) => `grouped ${a.who}`);
    },
    single: async (a) => {
      if (a.who === "bad") throw new Error("bad item");
      await kv.atomic().sum(total, BigInt(a.n)).commit();
      return `alone ${a.who}`;
    },
  });
  const items = await Promise.all(["ok1", "bad", "ok2"].map((w) => add(kv, w, 1)));
  const settled = await Promise.allSettled(items.map((a) => submit(g, a)));
  assert.deepEqual(settled.map((s) => s.status), ["fulfilled", "rejected", "fulfilled"]);
  assert.deepEqual(
    settled.flatMap((s) => s.status === "fulfilled" ? [s.value] : []),
    ["alone ok1", "alone ok2"],
  );
  assert.equal(await totalOf(kv), 2n);
  // The committer still works afterwards.
  assert.equal(await submit(g, await add(kv, "later", 1)), "grouped later");
});

Deno.test("group commit: items of one lane share a group but never fly in two at once; committed reports each group with its versionstamp", async () => {
  using kv = await Deno.openKv(":memory:");
  const groups: string[][] = [];
  const reported: { whos: string[]; versionstamp: string }[] = [];
  let inFlight: string[][] = [];
  const { g } = adder(kv, {
    maxInFlight: 2,
    maxItems: 4,
    laneOf: (a) => a.who.startsWith("hot") ? "hot" : null,
    build: async (op, items) => {
      const whos = items.map((a) => a.who);
      groups.push(whos);
      const hot = (gr: string[]) => gr.some((w) => w.startsWith("hot"));
      assert.ok(!(hot(whos) && inFlight.some(hot)), "two groups of one lane in flight");
      inFlight.push(whos);
      await new Promise((r) => setTimeout(r, 2));
      inFlight = inFlight.filter((gr) => gr !== whos);
      for (const a of items) op.sum(total, BigInt(a.n));
      return whos;
    },
    committed: (items, answers, versionstamp) => {
      assert.deepEqual(answers, items.map((a) => a.who));
      reported.push({ whos: items.map((a) => a.who), versionstamp });
    },
  });
  const whos = Array.from({ length: 24 }, (_, i) => i % 2 ? `hot${i}` : `cold${i}`);
  await Promise.all(whos.map(async (w) => submit(g, await add(kv, w, 1))));
  assert.equal(await totalOf(kv), 24n);
  // Several hot items did share a group (a lane is not a key).
  assert.ok(groups.some((gr) => gr.filter((w) => w.startsWith("hot")).length > 1));
  // Every built group is reported once (two in flight may commit in either order).
  const byName = (gs: string[][]) => gs.map((gr) => gr.join(",")).sort();
  assert.deepEqual(byName(reported.map((r) => r.whos)), byName(groups));
  const stamps = reported.map((r) => r.versionstamp);
  assert.equal(new Set(stamps).size, stamps.length, "one versionstamp per committed op");
  const last = await kv.get(total);
  assert.ok(stamps.includes(last.versionstamp!), "the versionstamp is the op's own");
});

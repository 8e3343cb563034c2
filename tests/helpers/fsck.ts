/**
 * Helpers for the fsck tests: a small community written through the real HTTP surface,
 * and one call that breaks nothing but runs a check or a repair and returns its report.
 */
import assert from "node:assert/strict";
import { runFsck } from "@/lib/ops/fsck/run.ts";
import type { FsckReport } from "@/lib/ops/fsck/report.ts";
import { createTestApp, jsonWrite, type TestApp } from "./app.ts";
import { answer, ask, type Member, member, postAs, vote } from "./community.ts";

/** A community made through HTTP: three members, two questions, answers, a reply, votes. */
export interface Community {
  t: TestApp;
  ada: Member;
  bob: Member;
  cy: Member;
  /** Ada's question, tagged `kv` and `deno`. */
  q1: string;
  /** Bob's question, tagged `kv`. */
  q2: string;
  /** Bob's answer on q1. */
  a1: string;
  /** Cy's answer on q1. */
  a2: string;
  /** Ada's reply to a1. */
  r1: string;
}

/** Make the {@link Community} on a fresh in-memory store (close `t` after). */
export async function community(): Promise<Community> {
  const t = await createTestApp();
  const [ada, bob, cy] = [await member(t, "Ada"), await member(t, "Bob"), await member(t, "Cy")];
  const q1 = await ask(t, ada, {
    title: "How does Deno KV order keys",
    description: "Lists come back sorted; by what?",
    tags: ["kv", "deno"],
  });
  const q2 = await ask(t, bob, { title: "Atomic checks in KV", tags: ["kv"] });
  const a1 = await answer(t, bob, q1, "By type, then by bytes.");
  const a2 = await answer(t, cy, q1, "Read the key codec.");
  const r1 = await answer(t, ada, q1, "Thanks, that helps.", a1);
  await vote(t, ada, "message", a1, "up");
  await vote(t, cy, "message", a1, "up");
  await vote(t, bob, "question", q1, "up");
  await vote(t, cy, "question", q1, "down");
  await vote(t, ada, "question", q2, "up");
  const fav = await postAs(t, ada, "/api/favorites", { targetType: "message", targetId: a1 });
  assert.equal(fav.status, 200, await fav.clone().text());
  const fav2 = await postAs(t, cy, "/api/favorites", { targetType: "question", targetId: q1 });
  assert.equal(fav2.status, 200, await fav2.clone().text());
  return { t, ada, bob, cy, q1, q2, a1, a2, r1 };
}

/** Run the check over `kv` and return its report. */
export async function check(kv: Deno.Kv): Promise<FsckReport> {
  return (await runFsck(kv)).found;
}

/**
 * Repair `kv`, assert the check after it is clean, and return what the repair found and
 * fixed.
 */
export async function repairClean(kv: Deno.Kv): Promise<FsckReport> {
  const { found, after, clean } = await runFsck(kv, { repair: true });
  assert.ok(clean, `still wrong after the repair:\n${after!.lines().join("\n")}`);
  assert.equal(after!.problems, 0);
  return found;
}

/** DELETE `path` as `who` (same origin); asserts it answered 200. */
export async function remove(t: TestApp, who: Member, path: string): Promise<void> {
  const res = await t.request(path, { method: "DELETE", headers: jsonWrite(t, who.cookie) });
  assert.equal(res.status, 200, `${path}: ${await res.text()}`);
}

/** The first key under `prefix` (asserted to exist). */
export async function firstKey(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Deno.KvKey> {
  for await (const e of kv.list({ prefix }, { limit: 1 })) return e.key;
  throw new Error(`nothing under ${JSON.stringify(prefix)}`);
}

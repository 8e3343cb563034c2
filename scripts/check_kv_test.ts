/** The KV rules of `deno task check`: bare commits and KV queues, named by file and line. */
import assert from "node:assert/strict";
import { checkKvUse, findKvViolations, isCheckedFile } from "./check_kv.ts";

const rulesAt = (path: string, text: string) =>
  findKvViolations(path, text).map((f) => [f.line, f.rule, f.text]);

Deno.test("findKvViolations() flags a bare commit with its line, outside lib/kv/ only", () => {
  const sample = [
    "const op = kv.atomic().set(['a'], 1);",
    "await op.commit();",
    "await kv.atomic()",
    "  .delete(['b'])",
    "  .commit( );",
  ].join("\n");
  assert.deepEqual(rulesAt("lib/community/votes.ts", sample), [
    [2, "bare-commit", "await op.commit();"],
    [5, "bare-commit", ".commit( );"],
  ]);
  assert.deepEqual(rulesAt("lib/kv/atomic.ts", sample), []);
});

Deno.test("findKvViolations() flags KV queues, on the store and on an atomic op", () => {
  const sample = [
    "await kv.enqueue({ kind: 'tick' }, { delay: 1000 });",
    "const op = kv.atomic().check(entry)",
    "  .enqueue({ kind: 'tick' });",
    "kv.listenQueue((msg) => run(msg));",
    "// the lib/kv/ helpers are no excuse for a queue:",
  ].join("\n");
  const found = rulesAt("lib/kv/queue.ts", sample);
  assert.deepEqual(found.map(([line, rule]) => [line, rule]), [
    [1, "kv-queue"],
    [3, "kv-queue"],
    [4, "kv-queue"],
  ]);
});

Deno.test("findKvViolations() passes clean text: retried commits and stream controllers", () => {
  const clean = [
    "await commit(kv, (op) => op.set(['a'], 1));",
    "await updateAtomically(async () => ({ op: kv.atomic(), result: 1 }));",
    "await out.commit([{ type: 'message', data }], (op) => op.set(key, v));",
    "controller.enqueue(encoder.encode(text));",
    "streamController.enqueue(chunk);",
    "this.#enqueue([event]);",
    "// enqueues the next message; commits retry",
  ].join("\n");
  assert.deepEqual(rulesAt("lib/http/sse.ts", clean), []);
});

Deno.test("isCheckedFile() takes production sources, not tests, benches or other files", () => {
  for (const p of ["lib/a.ts", "routes/x/[id].tsx", "islands/A.tsx", "main.ts", "scripts/b.ts"]) {
    assert.equal(isCheckedFile(p), true, p);
  }
  for (const p of ["lib/a_test.ts", "tests/x.ts", "bench/speed.ts", "lib/x.json", "mainx.ts"]) {
    assert.equal(isCheckedFile(p), false, p);
  }
});

Deno.test("checkKvUse() finds no bare commit and no KV queue anywhere in this repository", async () => {
  const root = new URL("..", import.meta.url).pathname;
  assert.deepEqual(await checkKvUse(root), []);
});

/** The fsck report: counts per kind, a few escaped examples, and its printed lines. */
import assert from "node:assert/strict";
import { escapeKey, FsckReport } from "./report.ts";

Deno.test("escapeKey() prints any key as one line of printable ASCII", () => {
  const key = ["votes", "q-1\u001b[2J\u202egnp.exe", "line\nbreak", 7n, new Uint8Array(3), -0];
  const shown = escapeKey(key);
  assert.match(shown, /^[\x20-\x7e]+$/);
  assert.ok(shown.includes("\\u001b[2J"), shown);
  assert.ok(shown.includes("\\u202e"), shown);
  assert.ok(shown.includes("\\n"), shown);
  assert.ok(shown.includes('"7n"') && shown.includes('"<3 bytes>"'), shown);
  assert.ok(escapeKey(["x", "y".repeat(500)]).length < 120, "long parts are cut");
});

Deno.test("FsckReport counts each kind, keeps three examples and says what was fixed", () => {
  const report = new FsckReport();
  assert.ok(report.clean);
  for (let i = 0; i < 5; i++) {
    report.found("votes", "counter differs", ["vote_counts", `q-${i}`], i < 2);
  }
  report.found("feeds", "gap", ["questions_by_seq", 4]);
  report.moved = 1;
  assert.equal(report.problems, 6);
  assert.equal(report.fixed, 2);
  assert.equal(report.count("votes", "counter differs"), 5);
  assert.equal(report.count("votes", "other"), 0);
  assert.deepEqual(report.lines(), [
    "votes: 5 problems",
    '  counter differs: 5, 2 fixed (e.g. ["vote_counts","q-0"], ["vote_counts","q-1"], ["vote_counts","q-2"])',
    "feeds: 1 problem",
    '  gap: 1 (e.g. ["questions_by_seq",4])',
    "1 suspect was changed by a live writer while being checked and left unjudged (run fsck again, on a quiet store, to judge them)",
  ]);
});

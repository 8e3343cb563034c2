/** Reading SQLite's store failures, and the one start-up line for each. */
import assert from "node:assert/strict";
import { openFailureLine, storeFailure } from "./storage_errors.ts";

Deno.test("storeFailure() reads full, read-only, damaged and disk errors, and nothing else", () => {
  const kind = (message: string) => storeFailure(new Error(message))?.kind ?? null;
  assert.equal(kind("database or disk is full"), "full");
  assert.equal(kind("No space left on device (os error 28)"), "full");
  assert.equal(kind("attempt to write a readonly database"), "read-only");
  assert.equal(kind("Read-only file system (os error 30)"), "read-only");
  assert.equal(kind("database disk image is malformed"), "damaged");
  assert.equal(kind("file is not a database"), "damaged");
  assert.equal(kind("disk I/O error"), "disk");
  assert.equal(kind("database is locked"), null);
  assert.equal(kind("Question not found"), null);
  assert.equal(storeFailure(undefined), null);
});

Deno.test("openFailureLine() names KV_PATH once, says what is wrong and what to do, on one line", () => {
  const line = (message: string, facts = {}) =>
    openFailureLine({ path: "/srv/parley.kv", error: new Error(message), ...facts });
  assert.equal(
    line("unable to open database file: /srv/parley.kv", { readable: true, writable: false }),
    "Cannot start: KV_PATH=/srv/parley.kv is read-only (unable to open database file). " +
      "Give this process write access to the file and its folder, or point KV_PATH at a writable copy.",
  );
  assert.equal(
    line("database or disk is full"),
    "Cannot start: the disk holding KV_PATH=/srv/parley.kv is full (database or disk is full). " +
      "Free some space there, then start again.",
  );
  assert.match(
    openFailureLine({ path: undefined, error: new Error("boom\nat somewhere") }),
    /^Cannot start: the default store \(KV_PATH unset\) cannot be opened \(boom\)\. [^\n]+$/,
  );
});

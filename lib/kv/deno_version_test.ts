/** The store's record of the newest Deno that wrote it. */
import assert from "node:assert/strict";
import {
  checkDenoVersion,
  compareDenoVersions,
  DENO_VERSION_KEY,
  denoVersionSentence,
} from "@/lib/kv/deno_version.ts";

const recorded = async (kv: Deno.Kv) => {
  const { value } = await kv.get(DENO_VERSION_KEY);
  assert.ok(value instanceof Uint8Array, "kept as raw bytes, which every Deno can read");
  return new TextDecoder().decode(value);
};

Deno.test("compareDenoVersions() compares part by part as numbers", () => {
  assert.ok(compareDenoVersions("2.10.0", "2.9.6") > 0);
  assert.ok(compareDenoVersions("2.5.0", "2.9.6") < 0);
  assert.ok(compareDenoVersions("2.9.10", "2.9.9") > 0);
  assert.ok(compareDenoVersions("10.0.0", "9.99.99") > 0);
  assert.equal(compareDenoVersions("2.5.0", "2.5.0"), 0);
  assert.equal(compareDenoVersions("2.5.0+1a2b3c4", "2.5.0"), 0);
  assert.throws(() => compareDenoVersions("two", "2.5.0"), RangeError);
});

Deno.test("checkDenoVersion() records the running version in a store with no record", async () => {
  using kv = await Deno.openKv(":memory:");
  const outcome = await checkDenoVersion(kv, "write", "2.5.0");
  assert.deepEqual(outcome, { ok: true, storeVersion: "2.5.0", raisedFrom: null });
  assert.equal(await recorded(kv), "2.5.0");
});

Deno.test("checkDenoVersion() raises the record for a newer Deno, numerically", async () => {
  using kv = await Deno.openKv(":memory:");
  await checkDenoVersion(kv, "write", "2.9.6");
  const outcome = await checkDenoVersion(kv, "write", "2.10.0");
  assert.deepEqual(outcome, { ok: true, storeVersion: "2.10.0", raisedFrom: "2.9.6" });
  assert.equal(await recorded(kv), "2.10.0");
});

Deno.test("checkDenoVersion() refuses an older Deno and never lowers the record", async () => {
  using kv = await Deno.openKv(":memory:");
  await checkDenoVersion(kv, "write", "2.9.6");
  const before = await kv.get(DENO_VERSION_KEY);
  const outcome = await checkDenoVersion(kv, "write", "2.5.0");
  assert.deepEqual(outcome, {
    ok: false,
    reason: "older",
    storeVersion: "2.9.6",
    running: "2.5.0",
  });
  const after = await kv.get(DENO_VERSION_KEY);
  assert.equal(after.versionstamp, before.versionstamp);
  assert.equal(await recorded(kv), "2.9.6");
});

Deno.test("checkDenoVersion() writes nothing when the record already names this Deno", async () => {
  using kv = await Deno.openKv(":memory:");
  await checkDenoVersion(kv, "write", "2.9.6");
  const before = await kv.get(DENO_VERSION_KEY);
  assert.deepEqual(await checkDenoVersion(kv, "write", "2.9.6"), {
    ok: true,
    storeVersion: "2.9.6",
    raisedFrom: null,
  });
  assert.equal((await kv.get(DENO_VERSION_KEY)).versionstamp, before.versionstamp);
});

Deno.test("checkDenoVersion() in read mode checks but never records", async () => {
  using kv = await Deno.openKv(":memory:");
  assert.equal((await checkDenoVersion(kv, "read", "2.9.6")).ok, true);
  assert.equal((await kv.get(DENO_VERSION_KEY)).value, null);
  await checkDenoVersion(kv, "write", "2.5.0");
  assert.equal((await checkDenoVersion(kv, "read", "2.9.6")).ok, true);
  assert.equal(await recorded(kv), "2.5.0");
  await checkDenoVersion(kv, "write", "2.9.6");
  assert.equal((await checkDenoVersion(kv, "read", "2.5.0")).ok, false);
});

Deno.test("checkDenoVersion() from instances starting at once leaves the newest version, whatever the order", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const versions = ["2.9.6", "2.5.0", "2.10.1", "2.9.6", "2.10.0", "2.5.0"];
    const stores = await Promise.all(versions.map(() => Deno.openKv(`${dir}/kv.sqlite`)));
    const outcomes = await Promise.all(
      versions.map((v, i) => checkDenoVersion(stores[i], "write", v)),
    );
    // The newest always succeeds; an older one succeeds only if it ran before the newest.
    assert.equal(outcomes[2].ok, true);
    for (const [i, outcome] of outcomes.entries()) {
      if (!outcome.ok) assert.ok(compareDenoVersions(versions[i], outcome.storeVersion) < 0);
    }
    assert.equal(await recorded(stores[0]), "2.10.1");
    for (const kv of stores) kv.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkDenoVersion() refuses a record that is not a version", async () => {
  using kv = await Deno.openKv(":memory:");
  await kv.set(DENO_VERSION_KEY, new TextEncoder().encode("garbage"));
  const outcome = await checkDenoVersion(kv, "write", "2.9.6");
  assert.deepEqual(outcome, {
    ok: false,
    reason: "unreadable",
    storeVersion: "garbage",
    running: "2.9.6",
  });
  assert.match(denoVersionSentence(outcome.ok ? assert.fail() : outcome), /Deno 2\.9\.6/);
});

Deno.test("denoVersionSentence() is one sentence naming both versions and both ways on", () => {
  const text = denoVersionSentence({
    ok: false,
    reason: "older",
    storeVersion: "2.9.6",
    running: "2.5.0",
  });
  assert.match(text, /Deno 2\.9\.6 has written to it and this is Deno 2\.5\.0/);
  assert.match(text, /run under Deno 2\.9\.6 or newer/);
  assert.match(text, /restore it into a new store under Deno 2\.5\.0/);
  assert.ok(text.endsWith(".") && !/\.\s/.test(text) && !text.includes("\n"), "one sentence");
});

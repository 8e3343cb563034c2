import assert from "node:assert/strict";
import { fileHolds, writeIfChanged } from "./generated_file.ts";

Deno.test("writeIfChanged(): writes a missing or different file, leaves one that holds the text alone", async () => {
  const dir = await Deno.makeTempDir({ prefix: "generated-file-" });
  try {
    const path = `${dir}/x.gen.ts`;
    assert.equal(await fileHolds(path, "a"), false, "a missing file holds nothing");
    assert.equal(await writeIfChanged(path, "a"), true);
    const { mtime } = await Deno.stat(path);
    assert.equal(await writeIfChanged(path, "a"), false);
    assert.deepEqual((await Deno.stat(path)).mtime, mtime, "not rewritten");
    assert.equal(await fileHolds(path, "a"), true);
    assert.equal(await writeIfChanged(path, "b"), true);
    assert.equal(await Deno.readTextFile(path), "b");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

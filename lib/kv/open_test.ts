/** Opening KV stores. */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openKv, STORE_PAGE_SIZE, StoreVersionError } from "@/lib/kv/open.ts";
import { DENO_VERSION_KEY } from "@/lib/kv/deno_version.ts";

Deno.test("openKv() creates the folder of a file path", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await openKv(`${dir}/nested/deeper/app.kv`);
  await kv.set(["x"], 1);
  kv.close();
  assert.ok((await Deno.stat(`${dir}/nested/deeper/app.kv`)).isFile);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("openKv() records this Deno's version in the store it opens for writing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const kv = await openKv(`${dir}/app.kv`);
    const { value } = await kv.get(DENO_VERSION_KEY);
    kv.close();
    assert.ok(value instanceof Uint8Array);
    assert.equal(new TextDecoder().decode(value), Deno.version.deno);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openKv() for reading checks the version but records nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const kv = await openKv(`${dir}/app.kv`, { access: "read" });
    assert.equal((await kv.get(DENO_VERSION_KEY)).value, null);
    kv.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openKv() refuses a store a newer Deno wrote, with the sentence, and closes it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const [major] = Deno.version.deno.split(".");
    const newer = `${Number(major) + 1}.0.0`;
    const writer = await Deno.openKv(`${dir}/app.kv`);
    await writer.set(DENO_VERSION_KEY, new TextEncoder().encode(newer));
    writer.close();
    for (const access of ["write", "read"] as const) {
      await assert.rejects(
        () => openKv(`${dir}/app.kv`, { access }),
        (err) =>
          err instanceof StoreVersionError &&
          err.message.includes(
            `Deno ${newer} has written to it and this is Deno ${Deno.version.deno}`,
          ),
      );
    }
    // Closed, not leaked: the file is free and still records the newer version.
    const after = await Deno.openKv(`${dir}/app.kv`);
    const { value } = await after.get(DENO_VERSION_KEY);
    after.close();
    assert.equal(new TextDecoder().decode(value as Uint8Array), newer);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openKv() creates a new store file with 8 KiB pages and leaves an existing one alone", async () => {
  const dir = await Deno.makeTempDir({ prefix: "compact-open-" });
  try {
    const pageSize = (path: string) => {
      const db = new DatabaseSync(path);
      try {
        return (db.prepare("PRAGMA page_size").get() as { page_size: number }).page_size;
      } finally {
        db.close();
      }
    };
    const fresh = `${dir}/new/store.kv`;
    const kv = await openKv(fresh);
    await kv.set(["a"], "b");
    assert.equal((await kv.get(["a"])).value, "b");
    kv.close();
    assert.equal(pageSize(fresh), STORE_PAGE_SIZE);
    // The page size was set without a journal or sync; Deno KV's own settings hold after.
    const db = new DatabaseSync(fresh);
    try {
      assert.deepEqual({ ...db.prepare("PRAGMA journal_mode").get() }, { journal_mode: "wal" });
      assert.deepEqual({ ...db.prepare("PRAGMA integrity_check").get() }, {
        integrity_check: "ok",
      });
    } finally {
      db.close();
    }
    // A file made elsewhere (SQLite's default pages) opens as it is.
    const older = `${dir}/older.kv`;
    const before = await Deno.openKv(older);
    await before.set(["a"], 1);
    before.close();
    const again = await openKv(older);
    assert.equal((await again.get(["a"])).value, 1);
    again.close();
    assert.equal(pageSize(older), 4096);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Opening KV stores. */
import assert from "node:assert/strict";
import { openKv } from "@/lib/kv/open.ts";

Deno.test("openKv() creates the folder of a file path", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await openKv(`${dir}/nested/deeper/app.kv`);
  await kv.set(["x"], 1);
  kv.close();
  assert.ok((await Deno.stat(`${dir}/nested/deeper/app.kv`)).isFile);
  await Deno.remove(dir, { recursive: true });
});

import assert from "node:assert/strict";
import { sha256Hex } from "./ids.ts";

Deno.test("sha256Hex() is SHA-256 as lowercase hex (FIPS 180-2 vectors)", async () => {
  assert.equal(
    await sha256Hex("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assert.equal(
    await sha256Hex(""),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
});

Deno.test("sha256Hex() hashes non-ASCII text as its UTF-8 bytes, as Web Crypto does", async () => {
  const text = "héllo · 世界";
  const web = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  assert.equal(
    await sha256Hex(text),
    Array.from(web, (b) => b.toString(16).padStart(2, "0")).join(""),
  );
});

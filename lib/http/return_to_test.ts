/** safeReturnTo: post-sign-in and post-form redirects never leave the site. */
import assert from "node:assert/strict";
import { safeReturnTo } from "@/lib/http/return_to.ts";

Deno.test("safeReturnTo() keeps same-origin paths with their query and fragment", () => {
  assert.equal(safeReturnTo("/questions/q1?x=1#m2"), "/questions/q1?x=1#m2");
  assert.equal(safeReturnTo("/"), "/");
  assert.equal(safeReturnTo("/a/../profile"), "/profile");
  assert.equal(safeReturnTo("/%2F%2Fevil.example"), "/%2F%2Fevil.example");
});

Deno.test("safeReturnTo() refuses every way out of the site", () => {
  const escapes = [
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "https:evil.example",
    "javascript:alert(1)",
    "evil.example",
    // Dot segments collapse into a protocol-relative path after normalization.
    "/.//evil.example",
    "/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/a/..//evil.example",
    "/./\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/x\u0000",
    "",
    "x".repeat(3000),
  ];
  for (const bad of escapes) assert.equal(safeReturnTo(bad), "/", JSON.stringify(bad));
  assert.equal(safeReturnTo(42), "/");
  assert.equal(safeReturnTo(null, "/profile"), "/profile");
});

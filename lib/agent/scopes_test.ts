import assert from "node:assert/strict";
import { formatScopes, missingScopeMessage, normalizeScopes, parseScopeParam } from "./scopes.ts";

Deno.test("scopes: a key without any stored has both; lists are ordered without repeats", () => {
  assert.deepEqual(normalizeScopes(undefined), ["read", "write"]);
  assert.deepEqual(normalizeScopes(["write", "read", "write"]), ["read", "write"]);
  assert.deepEqual(normalizeScopes([]), []);
});

Deno.test("scopes: the OAuth scope parameter round-trips and refuses unknown scopes", () => {
  assert.deepEqual(parseScopeParam("write  read"), ["read", "write"]);
  assert.deepEqual(parseScopeParam(""), []);
  assert.deepEqual(parseScopeParam(null), []);
  assert.deepEqual(parseScopeParam("read offline_access"), ["read"]);
  assert.equal(parseScopeParam("read admin"), null);
  assert.equal(formatScopes(["write", "read"]), "read write");
  assert.equal(missingScopeMessage("token", "read"), "This token lacks the read scope");
});

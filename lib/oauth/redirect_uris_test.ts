import assert from "node:assert/strict";
import { redirectUriMatches, redirectUriProblem } from "./redirect_uris.ts";

Deno.test("redirect URIs: https anywhere, http only on loopback, never a fragment or credentials", () => {
  for (
    const ok of [
      "https://claude.ai/api/mcp/auth_callback",
      "https://vscode.dev/redirect",
      "http://127.0.0.1:33418/callback",
      "http://localhost:6274/oauth/callback",
      "http://[::1]:8080/cb",
      "http://127.0.0.1/cb",
    ]
  ) assert.equal(redirectUriProblem(ok), null, ok);
  for (
    const bad of [
      "http://app.example/cb",
      "http://127.0.0.1.evil.example/cb",
      "http://localhost.evil.example/cb",
      "cursor://anysphere.cursor-retrieval/oauth/callback",
      "javascript:alert(1)",
      "https://app.example/cb#x",
      "https://user:pw@app.example/cb",
      "/relative",
      "https://" + "a".repeat(2000) + ".example/",
    ]
  ) assert.notEqual(redirectUriProblem(bad), null, bad);
});

Deno.test("redirect URIs match exactly, except a loopback port (RFC 8252 §7.3)", () => {
  const loopback = ["http://127.0.0.1/callback"];
  assert.ok(redirectUriMatches(loopback, "http://127.0.0.1/callback"));
  assert.ok(redirectUriMatches(loopback, "http://127.0.0.1:51234/callback"));
  assert.ok(!redirectUriMatches(loopback, "http://127.0.0.1:51234/other"));
  assert.ok(!redirectUriMatches(loopback, "http://localhost:51234/callback"));
  const https = ["https://app.example/cb"];
  assert.ok(redirectUriMatches(https, "https://app.example/cb"));
  assert.ok(!redirectUriMatches(https, "https://app.example:8443/cb"));
  assert.ok(!redirectUriMatches(https, "https://app.example/cb?x=1"));
  assert.ok(!redirectUriMatches(https, "https://app.example/cb/"));
  assert.ok(!redirectUriMatches(https, "not a url"));
});

import assert from "node:assert/strict";
import { s256Challenge, verifyPkce } from "./pkce.ts";

// RFC 7636, appendix B.
const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

Deno.test("PKCE S256 matches RFC 7636's example and refuses a wrong or malformed verifier", () => {
  assert.equal(s256Challenge(VERIFIER), CHALLENGE);
  assert.ok(verifyPkce(VERIFIER, CHALLENGE));
  assert.ok(!verifyPkce(VERIFIER.slice(0, -1) + "l", CHALLENGE));
  // "plain" would send the verifier as the challenge: that never verifies.
  assert.ok(!verifyPkce(VERIFIER, VERIFIER));
  const short = "abc";
  assert.ok(!verifyPkce(short, s256Challenge(short)), "verifiers are 43–128 characters");
  const spaced = "a b".repeat(20);
  assert.ok(!verifyPkce(spaced, s256Challenge(spaced)), "of unreserved characters");
});

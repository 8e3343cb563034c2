import assert from "node:assert/strict";
import { FORM_TARGET_HEADER, widenFormAction } from "./form_action.ts";

const CSP = "default-src 'self'; form-action 'self'; frame-ancestors 'none'";

function response(target: string | null): Response {
  const headers = new Headers({ "content-security-policy": CSP });
  if (target !== null) headers.set(FORM_TARGET_HEADER, target);
  return new Response("", { headers });
}

Deno.test("form-action gains the redirect target's origin, and the marker header goes", () => {
  const res = response("http://127.0.0.1:33418/callback?x=1");
  widenFormAction(res);
  assert.equal(
    res.headers.get("content-security-policy"),
    "default-src 'self'; form-action 'self' http://127.0.0.1:33418; frame-ancestors 'none'",
  );
  assert.equal(res.headers.get(FORM_TARGET_HEADER), null);
});

Deno.test("form-action is left alone without a target, or with one that is not an http(s) URL", () => {
  for (const target of [null, "not a url", "javascript:alert(1)", "data:text/html,x"]) {
    const res = response(target);
    widenFormAction(res);
    assert.equal(res.headers.get("content-security-policy"), CSP, String(target));
    assert.equal(res.headers.get(FORM_TARGET_HEADER), null);
  }
});

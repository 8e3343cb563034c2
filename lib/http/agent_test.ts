/** The agent door's helpers: the credential the middleware authenticated, its scopes, and headers on an answer. */
import assert from "node:assert/strict";
import type { AppState } from "@/lib/state.ts";
import {
  type AgentCall,
  type AgentCredential,
  bearerChallenge,
  requireAgent,
  withHeaders,
} from "@/lib/http/agent.ts";
import { HttpError } from "../fresh/error.ts";

const ORIGIN = "https://parley.example";
const state = (agent?: AgentCall) =>
  ({ agent, services: { config: { appOrigin: ORIGIN } } }) as unknown as AppState;

function call(credential: Partial<AgentCredential>): AgentCall {
  return {
    credential: {
      kind: "key",
      id: "key_1",
      userId: "u_1",
      name: "k",
      prefix: "agent_x…",
      scopes: ["read", "write"],
      ...credential,
    },
    rate: { allowed: true, limit: 60, remaining: 59, resetAt: 60_000, retryAfter: 0 },
  };
}

Deno.test("requireAgent() answers docs/interface.md#agent-api's 401, pointing at the protected resource metadata, when no middleware authenticated a credential", () => {
  assert.throws(
    () => requireAgent(state(), null),
    (err: unknown) =>
      err instanceof HttpError && err.status === 401 &&
      err.message === "Invalid or missing API key" &&
      err.headers["www-authenticate"] ===
        `Bearer realm="parley-agent", resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource"`,
  );
});

Deno.test("requireAgent() returns the call the middleware put on the state when its credential has the scope", () => {
  const c = call({});
  assert.equal(requireAgent(state(c), null), c);
  assert.equal(requireAgent(state(c), "write"), c);
  const readOnly = call({ scopes: ["read"] });
  assert.equal(requireAgent(state(readOnly), "read"), readOnly);
});

Deno.test("requireAgent() refuses a credential without the scope with a 403 naming it", () => {
  assert.throws(
    () => requireAgent(state(call({ scopes: ["read"] })), "write"),
    (err: unknown) =>
      err instanceof HttpError && err.status === 403 &&
      err.message === "This key lacks the write scope",
  );
  assert.throws(
    () => requireAgent(state(call({ kind: "token", scopes: ["write"] })), "read"),
    (err: unknown) =>
      err instanceof HttpError && err.status === 403 &&
      err.message === "This token lacks the read scope",
  );
});

Deno.test("bearerChallenge() adds error=invalid_token only when a credential was presented", () => {
  assert.ok(!bearerChallenge(ORIGIN, false).includes("error="));
  assert.ok(bearerChallenge(ORIGIN, true).endsWith(', error="invalid_token"'));
});

Deno.test("withHeaders() keeps status and body and sets the headers", async () => {
  const res = withHeaders(Response.json({ a: 1 }, { status: 201 }), { "x-ratelimit-limit": "60" });
  assert.equal(res.status, 201);
  assert.equal(res.headers.get("x-ratelimit-limit"), "60");
  assert.equal(res.headers.get("content-type"), "application/json");
  assert.deepEqual(await res.json(), { a: 1 });
});

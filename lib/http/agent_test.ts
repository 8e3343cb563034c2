/** The agent door's helpers: the key the middleware authenticated, and headers on an answer. */
import assert from "node:assert/strict";
import type { AppState } from "@/lib/state.ts";
import { type AgentCall, requireAgent, withHeaders } from "@/lib/http/agent.ts";
import { HttpError } from "../fresh/error.ts";

const state = (agent?: AgentCall) => ({ agent }) as unknown as AppState;

Deno.test("requireAgent() answers docs/interface.md#agent-api's 401 when no middleware authenticated a key", () => {
  assert.throws(
    () => requireAgent(state()),
    (err: unknown) =>
      err instanceof HttpError && err.status === 401 &&
      err.message === "Invalid or missing API key" &&
      err.headers["www-authenticate"] === 'Bearer realm="parley-agent"',
  );
});

Deno.test("requireAgent() returns the call the middleware put on the state", () => {
  const call = {
    key: { id: "key_1", userId: "u_1" },
    rate: { allowed: true, limit: 60, remaining: 59, resetAt: 60_000, retryAfter: 0 },
  } as AgentCall;
  assert.equal(requireAgent(state(call)), call);
});

Deno.test("withHeaders() keeps status and body and sets the headers", async () => {
  const res = withHeaders(Response.json({ a: 1 }, { status: 201 }), { "x-ratelimit-limit": "60" });
  assert.equal(res.status, 201);
  assert.equal(res.headers.get("x-ratelimit-limit"), "60");
  assert.equal(res.headers.get("content-type"), "application/json");
  assert.deepEqual(await res.json(), { a: 1 });
});

import assert from "node:assert/strict";
import { scopesNeeded } from "./mcp_scopes.ts";

const TOOLS = [
  { name: "search_questions", readOnly: true },
  { name: "ask_question", readOnly: false },
];
const call = (name: string, id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {} },
});

Deno.test("MCP requests need read for read tools and content, write for other tools, nothing for the protocol", () => {
  assert.deepEqual(scopesNeeded(call("search_questions"), TOOLS), ["read"]);
  assert.deepEqual(scopesNeeded(call("ask_question"), TOOLS), ["write"]);
  assert.deepEqual(scopesNeeded(call("no_such_tool"), TOOLS), []);
  assert.deepEqual(
    scopesNeeded([call("ask_question"), call("search_questions", 2)], TOOLS),
    ["read", "write"],
  );
  for (const method of ["resources/read", "prompts/get", "completion/complete"]) {
    assert.deepEqual(scopesNeeded({ jsonrpc: "2.0", id: 1, method }, TOOLS), ["read"], method);
  }
  for (const method of ["initialize", "ping", "tools/list", "logging/setLevel"]) {
    assert.deepEqual(scopesNeeded({ jsonrpc: "2.0", id: 1, method }, TOOLS), [], method);
  }
  assert.deepEqual(scopesNeeded(undefined, TOOLS), []);
  assert.deepEqual(scopesNeeded("not json-rpc", TOOLS), []);
});

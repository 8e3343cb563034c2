/**
 * Which scope each MCP request needs (lib/agent/scopes.ts): a `tools/call` of a
 * read-only tool needs `read`, of any other tool `write`; reading resources, getting
 * prompts and completing arguments (which show questions) need `read`; the rest of the
 * protocol (`initialize`, `ping`, the lists of tools, resources and prompts, logging)
 * needs none. `/mcp` refuses a request whose credential lacks one with 403 and
 * `WWW-Authenticate: Bearer error="insufficient_scope"` before any of it runs (the MCP
 * authorization spec's scope challenge), so a client can ask its person for more.
 *
 * @module
 */
import type { Scope } from "./scopes.ts";

/** A tool as far as scopes go: its name and whether it only reads. */
export interface ScopedTool {
  name: string;
  readOnly: boolean;
}

/** Methods that read Parley's content and so need `read`, whatever their arguments. */
const READING_METHODS = new Set([
  "resources/read",
  "resources/subscribe",
  "prompts/get",
  "completion/complete",
]);

/**
 * The scopes the JSON-RPC message (or batch) `body` needs, in order, without repeats.
 *
 * @example
 * ```ts
 * const tools = [{ name: "search_questions", readOnly: true }, { name: "reply", readOnly: false }];
 * scopesNeeded({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "reply" } }, tools);
 * // ["write"]
 * scopesNeeded({ jsonrpc: "2.0", id: 1, method: "tools/list" }, tools); // []
 * ```
 */
export function scopesNeeded(body: unknown, tools: readonly ScopedTool[]): Scope[] {
  const messages = Array.isArray(body) ? body : [body];
  const needed = new Set<Scope>();
  for (const m of messages) {
    if (m === null || typeof m !== "object") continue;
    const { method, params } = m as { method?: unknown; params?: { name?: unknown } };
    if (method === "tools/call") {
      const tool = tools.find((t) => t.name === params?.name);
      // An unknown tool needs nothing here: the server answers that it does not exist.
      if (tool) needed.add(tool.readOnly ? "read" : "write");
    } else if (typeof method === "string" && READING_METHODS.has(method)) {
      needed.add("read");
    }
  }
  return (["read", "write"] as Scope[]).filter((s) => needed.has(s));
}

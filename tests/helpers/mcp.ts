/**
 * MCP test harness: the official SDK's `Client` over `StreamableHTTPClientTransport`
 * against the real app on a loopback port, with an agent key.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createTestApp, serveAppOnLoopback, type TestApp, type TestAppOptions } from "./app.ts";
import { agentKey, member } from "./community.ts";

/** A structured tool result. */
export type Structured = Record<string, unknown>;

/**
 * An SDK client connected to `url`/mcp with `key` (none: no Authorization header), its
 * requests made with `fetchFn` when given (a test counting them).
 *
 * @example
 * ```ts
 * const client = await connectMcp("http://127.0.0.1:8000", "agent_…");
 * await client.listTools();
 * ```
 */
export async function connectMcp(
  url: string,
  key: string | null,
  fetchFn?: typeof fetch,
): Promise<Client> {
  const client = new Client({ name: "parley-test", version: "1.0.0" });
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers },
      fetch: fetchFn,
    }),
  );
  return client;
}

/**
 * Run `fn` with a test app served on loopback and a client connected with Ada's key.
 *
 * @example
 * ```ts
 * await withMcp(async ({ client }) => {
 *   await client.listPrompts();
 * });
 * ```
 */
export async function withMcp(
  fn: (ctx: { t: TestApp; url: string; key: string; client: Client }) => Promise<void>,
  setup?: (t: TestApp) => void,
  opts: TestAppOptions = {},
): Promise<void> {
  const t = await createTestApp(opts);
  setup?.(t);
  const srv = serveAppOnLoopback(t);
  let client: Client | undefined;
  try {
    const ada = await member(t, "Ada");
    const key = await agentKey(t, ada);
    client = await connectMcp(srv.url, key);
    await fn({ t, url: srv.url, key, client });
  } finally {
    await client?.close();
    await srv.close();
    await t.close();
  }
}

/**
 * The text items of a tool result, joined.
 *
 * @example
 * ```ts
 * declare const result: { content?: unknown };
 * const message = toolText(result);
 * ```
 */
export function toolText(result: { content?: unknown }): string {
  const items = (result.content ?? []) as { type: string; text?: string }[];
  return items.filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

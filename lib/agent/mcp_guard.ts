/**
 * What `/mcp` refuses before any MCP handling (docs/interface.md#mcp):
 *
 * - **DNS rebinding.** A web page on `evil.example` whose name is made to resolve to the
 *   server's address gets the browser to send it requests with `Host: evil.example` and
 *   `Origin: http://evil.example`. `/mcp` serves only requests whose `Host` is
 *   `APP_ORIGIN`'s and whose `Origin`, when there is one, is `APP_ORIGIN`; in local mode
 *   also the loopback names (`localhost`, `127.0.0.1`, `[::1]`) on the configured port.
 *   A request without `Origin` (every non-browser MCP client) is served. A foreign one is
 *   answered 403 with a JSON-RPC error. This is the check the SDK transport's
 *   `enableDnsRebindingProtection` makes, done here in front of the key check so a
 *   refused request neither spends the key's rate budget nor learns whether a key is
 *   valid, and with `Host` compared as a parsed authority (case and default port
 *   normalised) rather than as an exact string.
 * - **JSON-RPC batches.** Protocol version 2025-06-18 removed batching; the SDK still
 *   accepts arrays, so an array body is answered 400 "batching not supported".
 *
 * @module
 */
import type { Config } from "../config.ts";

/** The hosts and origins `/mcp` answers for. */
export interface McpHostPolicy {
  /** Allowed `Host` values, as `URL.host` spells them (lower case, no default port). */
  hosts: ReadonlySet<string>;
  /** Allowed `Origin` values, as `URL.origin` spells them. */
  origins: ReadonlySet<string>;
  /** `APP_ORIGIN`'s scheme (`https:`): the default port a `Host` may leave out. */
  protocol: string;
}

/** Loopback names a local browser or client may use for a server on this machine. */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"] as const;

/**
 * The policy for a configuration: `APP_ORIGIN`'s host and origin, plus in local mode
 * the loopback names on `PORT` and on `APP_ORIGIN`'s port.
 *
 * @example
 * ```ts
 * import { parseConfig } from "@/lib/config.ts";
 * const policy = mcpHostPolicy(parseConfig({ PORT: "8000", KV_PATH: ":memory:" }));
 * policy.hosts.has("127.0.0.1:8000"); // true in local mode
 * ```
 */
export function mcpHostPolicy(
  config: Pick<Config, "appOrigin" | "localMode" | "port">,
): McpHostPolicy {
  const app = new URL(config.appOrigin);
  const hosts = new Set([app.host]);
  const origins = new Set([app.origin]);
  if (config.localMode) {
    const ports = new Set([
      String(config.port),
      app.port || (app.protocol === "https:" ? "443" : "80"),
    ]);
    for (const name of LOOPBACK_NAMES) {
      for (const port of ports) {
        const url = new URL(`${app.protocol}//${name}:${port}`);
        hosts.add(url.host);
        origins.add(url.origin);
      }
    }
  }
  return { hosts, origins, protocol: app.protocol };
}

/** `value` as `URL` normalises an authority (`Host`), or null when it is not one. */
function authorityOf(value: string, protocol: string): string | null {
  try {
    const url = new URL(`${protocol}//${value}`);
    return url.username || url.password || url.pathname !== "/" || url.search || url.hash
      ? null
      : url.host;
  } catch {
    return null;
  }
}

/** `value` as `URL` normalises an origin, or null when it is not one. */
function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    return url.origin === "null" ? null : url.origin;
  } catch {
    return null;
  }
}

/** A JSON-RPC error answer with no request id (the request is not read). */
function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}

/**
 * The 403 for a request from a foreign `Host` or `Origin`, or null when `req` may be
 * served. Without a `Host` header (a request made in-process) the request URL's host
 * stands in for it.
 *
 * @example
 * ```ts
 * import { parseConfig } from "@/lib/config.ts";
 * const policy = mcpHostPolicy(parseConfig({ APP_ORIGIN: "https://parley.example", KV_PATH: ":memory:" }));
 * const req = new Request("https://parley.example/mcp", { headers: { origin: "https://evil.example" } });
 * foreignRequestRefusal(req, policy)?.status; // 403
 * ```
 */
export function foreignRequestRefusal(req: Request, policy: McpHostPolicy): Response | null {
  const host = authorityOf(req.headers.get("host") ?? new URL(req.url).host, policy.protocol);
  if (host === null || !policy.hosts.has(host)) {
    return jsonRpcError(403, -32000, "Forbidden: the Host header does not name this server");
  }
  const origin = req.headers.get("origin");
  if (origin !== null) {
    const normalised = originOf(origin);
    if (normalised === null || !policy.origins.has(normalised)) {
      return jsonRpcError(403, -32000, "Forbidden: requests from other sites are refused");
    }
  }
  return null;
}

/**
 * The 400 for a JSON-RPC batch (a JSON array body), or null for anything else.
 *
 * @example
 * ```ts
 * batchRefusal([{ jsonrpc: "2.0", id: 1, method: "ping" }])?.status; // 400
 * batchRefusal({ jsonrpc: "2.0", id: 1, method: "ping" }); // null
 * ```
 */
export function batchRefusal(body: unknown): Response | null {
  return Array.isArray(body)
    ? jsonRpcError(400, -32600, "Invalid Request: batching not supported")
    : null;
}

/**
 * The client's address from the connection a request came on (`ctx.info`), for the
 * limits keyed by client address.
 *
 * @module
 */

/**
 * The hostname of the connection's peer, or "" when it has none (a Unix socket).
 *
 * @example
 * ```ts
 * import { remoteHostname } from "@/lib/http/remote.ts";
 *
 * const info: Deno.ServeHandlerInfo = {
 *   remoteAddr: { transport: "tcp", hostname: "203.0.113.7", port: 51000 },
 *   completed: Promise.resolve(),
 * };
 * remoteHostname(info); // "203.0.113.7"
 * ```
 */
export function remoteHostname(info: Deno.ServeHandlerInfo): string {
  const addr = info.remoteAddr;
  return "hostname" in addr ? addr.hostname : "";
}

/**
 * `Context`: what every middleware and handler of one request is given, as Fresh 2's —
 * `ctx.req`, `ctx.url`, `ctx.params`, `ctx.state`, `ctx.route`, `ctx.info`, `ctx.error`,
 * `ctx.next()` and `ctx.redirect()` — and the matched route's `ctx.config`.
 *
 * @module
 */
import type { RouteConfig } from "./types.ts";

/** The per-request context given to middleware and handlers. */
export interface Context<State> {
  /** The incoming request. */
  readonly req: Request;
  /** The request's URL, parsed. */
  readonly url: URL;
  /** Values of the route's `[param]` and `[...rest]` segments, decoded. */
  readonly params: Record<string, string>;
  /**
   * Shared by every middleware and the handler of one request. Parley's addition: a
   * middleware may replace the object, and later middleware, the handler and the page see
   * the replacement (Fresh 2's `state` is read-only).
   */
  state: State;
  /** The matched route pattern (`/questions/:id`), or null when nothing matched. */
  readonly route: string | null;
  /** The matched route's `config` export (empty when it has none or nothing matched). */
  readonly config: RouteConfig;
  /** The connection the request came on (its `remoteAddr`). */
  readonly info: Deno.ServeHandlerInfo;
  /** What was thrown, while an error is being answered; null otherwise. */
  error: unknown;
  /** Middleware only: run the rest of the chain and return its response. */
  next(): Promise<Response>;
  /**
   * A redirect to `pathOrUrl` (status 302 unless given). A path has its repeated slashes
   * collapsed, so `//evil.example` stays on this site.
   */
  redirect(pathOrUrl: string, status?: number): Response;
}

/** The connection info used when the server gives none (tests calling the app directly). */
export const LOOPBACK_INFO: Deno.ServeHandlerInfo = {
  remoteAddr: { transport: "tcp", hostname: "127.0.0.1", port: 0 },
  completed: Promise.resolve(),
};

/**
 * The response of `ctx.redirect()`: `Location` set to `pathOrUrl`, with a path's
 * repeated slashes collapsed (no protocol-relative redirect off the site).
 *
 * @example
 * ```ts
 * import { redirectResponse } from "./context.ts";
 *
 * redirectResponse("/signin?returnTo=%2Fask", 303).headers.get("location"); // "/signin?returnTo=%2Fask"
 * redirectResponse("//evil.example/").headers.get("location"); // "/evil.example/"
 * ```
 */
export function redirectResponse(pathOrUrl: string, status = 302): Response {
  let location = pathOrUrl;
  if (pathOrUrl !== "/" && pathOrUrl.startsWith("/")) {
    let end = pathOrUrl.indexOf("?");
    if (end === -1) end = pathOrUrl.indexOf("#");
    const path = end === -1 ? pathOrUrl : pathOrUrl.slice(0, end);
    const rest = end === -1 ? "" : pathOrUrl.slice(end);
    location = path.replaceAll(/\/+/g, "/") + rest;
  }
  return new Response(null, { status, headers: { location } });
}

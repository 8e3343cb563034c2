/**
 * Fresh 1's handler shape, accepted only while the route modules move to Fresh 2's (a
 * codemod rewrites them): `(req, ctx)` handlers and middleware, `ctx.render(data)`,
 * `ctx.renderNotFound()` and `ctx.remoteAddr`. The server tells the shapes apart by the
 * number of parameters a function declares. This module goes once no route uses it.
 *
 * @module
 */
import type { Context } from "./context.ts";
import type { Method, PageResponse } from "./handlers.ts";
import type { PageProps } from "./types.ts";

/** Fresh 1's context: Fresh 2's plus the calls Fresh 2 dropped. */
export interface LegacyContext<State, Data = unknown> extends Context<State> {
  /** Render the route's page with `data`. */
  render(data?: Data, init?: ResponseInit): Response;
  /** Render the `_404` page. */
  renderNotFound(data?: unknown): Response;
  /** `ctx.info.remoteAddr` as a network address. */
  remoteAddr: { hostname: string; port: number };
}

/** A Fresh 1 handler for one method (which may already return Fresh 2's `page(data)`). */
export type LegacyHandler<Data, State> = (
  req: Request,
  ctx: LegacyContext<State, Data>,
) => Response | PageResponse<Data> | Promise<Response | PageResponse<Data>>;

/** Fresh 1 handlers by method. */
export type LegacyHandlers<Data, State> = { [M in Method]?: LegacyHandler<Data, State> };

/** A Fresh 1 middleware. */
export type LegacyMiddleware<State> = (
  req: Request,
  ctx: LegacyContext<State>,
) => Response | Promise<Response>;

/**
 * True for a function written in Fresh 1's shape, `(req, ctx)`.
 *
 * @example
 * ```ts
 * import { isLegacy } from "./legacy.ts";
 *
 * isLegacy((_req: Request, _ctx: unknown) => new Response()); // true
 * isLegacy((_ctx: unknown) => new Response()); // false
 * ```
 */
export function isLegacy(fn: (...args: never[]) => unknown): boolean {
  return fn.length >= 2;
}

/** Fresh 1's names, kept for the modules not yet moved. */
export type FreshContext<State = Record<string, unknown>, Data = unknown> = LegacyContext<
  State,
  Data
>;
/** Fresh 1's name of {@link LegacyHandler}. */
export type Handler<Data = unknown, State = Record<string, unknown>> = LegacyHandler<Data, State>;
/** Fresh 1's name of {@link LegacyHandlers}. */
export type Handlers<Data = unknown, State = Record<string, unknown>> = LegacyHandlers<
  Data,
  State
>;
/** Fresh 1's name of {@link LegacyMiddleware}. */
export type MiddlewareHandler<State = Record<string, unknown>> = LegacyMiddleware<State>;
/** Fresh 1's props of `_app` and `_layout`: Fresh 2's page props. */
export type AppProps<State = Record<string, unknown>> = PageProps<unknown, State>;
/** Fresh 1's props of `_layout`. */
export type LayoutProps<State = Record<string, unknown>> = PageProps<unknown, State>;

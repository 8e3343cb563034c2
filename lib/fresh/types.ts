/**
 * Route-module types, shaped after Fresh 2's file routes: a `handler` export (see
 * ./handlers.ts) beside a default page component receiving {@link PageProps},
 * `_middleware` files exporting {@link Middleware}s, `_app`/`_layout` components that wrap
 * `Component`, and an optional `config`.
 *
 * @module
 */
import type { ComponentType, FunctionComponent } from "preact";
import type { Context } from "./context.ts";
import type { RouteHandler } from "./handlers.ts";

/**
 * Props of a page, `_layout`, `_app`, `_404` or `_500` component: the request's context
 * values and the handler's `data`.
 */
export interface PageProps<Data = unknown, State = unknown> {
  /** What the handler gave {@link import("./handlers.ts").page}; undefined without one. */
  data: Data;
  url: URL;
  req: Request;
  params: Record<string, string>;
  info: Deno.ServeHandlerInfo;
  state: State;
  route: string | null;
  /** On `_404` and `_500`: what was thrown (an `HttpError` for a 404); null elsewhere. */
  error: unknown;
  /** In `_app` and `_layout`: the page (or inner layout) to wrap; renders nothing elsewhere. */
  Component: FunctionComponent;
}

/** Optional per-route configuration (middleware sees it as `ctx.config`). */
export interface RouteConfig {
  skipAppWrapper?: boolean;
  skipInheritedLayouts?: boolean;
  /**
   * `"handler"`: the handler reads the session itself, with keys of its own in the same
   * read, instead of the root middleware reading it first (Parley's routes/_middleware.ts;
   * `ctx.state.session`).
   */
  sessionRead?: "handler";
}

/** A `_middleware` handler: `ctx.next()` continues the chain. */
export type Middleware<State> = (ctx: Context<State>) => Response | Promise<Response>;

// Route modules are typed by their own state and data; the table stores them erased.
// deno-lint-ignore no-explicit-any
type AnyRouteHandler = RouteHandler<any, any>;
// deno-lint-ignore no-explicit-any
type AnyMiddleware = Middleware<any>;

/** What a route module may export. */
export interface RouteModule {
  /**
   * The page (or `_app`, `_layout`, `_404`, `_500`) component; in a `_middleware` file,
   * its middleware, one or a list (Fresh 2's `export default define.middleware(…)`).
   */
  // Pages, layouts and _app each take their own props; the renderer supplies the right ones.
  // deno-lint-ignore no-explicit-any
  default?: ComponentType<any> | AnyMiddleware | AnyMiddleware[];
  handler?: AnyRouteHandler | AnyMiddleware | AnyMiddleware[];
  config?: RouteConfig;
  /**
   * Documentation of the route's operations, exported beside its `handler` so it stays
   * next to the code it describes; the OpenAPI generator collects it from the manifest.
   * The router ignores it.
   */
  docs?: unknown;
}

/** What an island module exports: its component as default. */
export interface IslandModule {
  // deno-lint-ignore no-explicit-any
  default: ComponentType<any>;
}

/**
 * A route file in the manifest: its module, or (as `manifest.gen.ts` has them) a loader
 * importing it when a request first matches, so start-up loads no route code.
 */
export type RouteSource = RouteModule | (() => Promise<RouteModule>);

/**
 * An island file in the manifest: its module, or (as `manifest.gen.ts` has them) a loader
 * importing it, called before a page that can render it does (see {@link Manifest}).
 */
export type IslandSource = IslandModule | (() => Promise<IslandModule>);

/** The generated manifest (`manifest.gen.ts`). */
export interface Manifest {
  routes: Record<string, RouteSource>;
  islands: Record<string, IslandSource>;
  /**
   * Per route file (page, `_app`, `_layout`, `_middleware`, `_404`, `_500`), the island
   * files its imports reach, as the build found them: a route's islands are loaded and
   * registered with its modules, so start-up loads none and a page loads only its own.
   * Islands given as modules need no entry (they are registered at once).
   */
  routeIslands?: Record<string, string[]>;
  baseUrl: string;
}

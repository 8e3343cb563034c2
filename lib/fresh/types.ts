/**
 * Route-module types, shaped after Fresh 1.x so a later move to real Fresh is mechanical:
 * `handler` (object of methods or one function), a default page component receiving
 * `PageProps`, `ctx.render`, `ctx.state`, `ctx.params`.
 *
 * @module
 */
import type { ComponentType } from "preact";

/** Per-request context given to handlers and middleware. */
export interface FreshContext<State = Record<string, unknown>, Data = unknown> {
  /** The incoming request (also the handler's first argument). */
  req: Request;
  url: URL;
  /** Values of `[param]` and `[...rest]` segments. */
  params: Record<string, string>;
  /** Shared by every middleware and the handler of one request. */
  state: State;
  /** The matched route pattern (`/questions/:id`), or null when nothing matched. */
  route: string | null;
  /** Why this context exists: a matched route or the not-found page. */
  destination: "route" | "notFound";
  remoteAddr: { hostname: string; port: number };
  /** Render the route's page component with `data`. */
  render(data?: Data, init?: ResponseInit): Response;
  /** Render the `_404` page. */
  renderNotFound(data?: unknown): Response;
  /** Middleware only: run the rest of the chain. */
  next(): Promise<Response>;
}

/** A handler for one method. */
export type Handler<Data = unknown, State = Record<string, unknown>> = (
  req: Request,
  ctx: FreshContext<State, Data>,
) => Response | Promise<Response>;

/** A route module's `handler` export when it is an object of methods. */
export type Handlers<Data = unknown, State = Record<string, unknown>> = {
  [M in "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS"]?: Handler<Data, State>;
};

/** Props of a page component. */
export interface PageProps<Data = unknown, State = Record<string, unknown>> {
  url: URL;
  params: Record<string, string>;
  data: Data;
  state: State;
  route: string | null;
}

/** Props of `_app` and `_layout` components: the page (or inner layout) to wrap. */
export interface LayoutProps<State = Record<string, unknown>> extends PageProps<unknown, State> {
  Component: ComponentType<Record<string, never>>;
}
export type AppProps<State = Record<string, unknown>> = LayoutProps<State>;

/** Optional per-route configuration. */
export interface RouteConfig {
  skipAppWrapper?: boolean;
  skipInheritedLayouts?: boolean;
}

/** Middleware handler: `ctx.next()` continues the chain. */
export type MiddlewareHandler<State = Record<string, unknown>> = (
  req: Request,
  ctx: FreshContext<State>,
) => Response | Promise<Response>;

// Route modules are typed by their own state and data; the table stores them erased.
// deno-lint-ignore no-explicit-any
type AnyHandler = Handler<any, any>;
// deno-lint-ignore no-explicit-any
type AnyHandlers = Handlers<any, any>;
// deno-lint-ignore no-explicit-any
type AnyMiddleware = MiddlewareHandler<any>;

/** What a route module may export. */
export interface RouteModule {
  // Pages, layouts and _app each take their own props; the renderer supplies the right ones.
  // deno-lint-ignore no-explicit-any
  default?: ComponentType<any>;
  handler?: AnyHandler | AnyHandlers | AnyMiddleware | AnyMiddleware[];
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

/** The generated manifest (`manifest.gen.ts`). */
export interface Manifest {
  routes: Record<string, RouteModule>;
  islands: Record<string, IslandModule>;
  baseUrl: string;
}

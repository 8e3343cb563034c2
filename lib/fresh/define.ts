/**
 * `define`: type a route's handlers, page, layout and middleware once per app, as Fresh
 * 2's `createDefine()` does, instead of spelling the state type in every route. Each
 * helper returns what it is given; only the types change. A page takes its data type from
 * its route's handler (`define.page<typeof handler>`): whatever the handler gives
 * {@link page}.
 *
 * @example
 * ```tsx
 * import { createDefine } from "./define.ts";
 * import { page } from "./handlers.ts";
 *
 * const define = createDefine<{ user: string | null }>();
 *
 * const handler = define.handlers({
 *   GET(ctx) {
 *     return page({ title: `Hello ${ctx.state.user ?? "visitor"}` });
 *   },
 * });
 *
 * const Hello = define.page<typeof handler>(({ data }) => <h1>{data.title}</h1>);
 * ```
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import type { RouteData, RouteHandler } from "./handlers.ts";
import type { Middleware, PageProps } from "./types.ts";

/** A page, layout or `_app` component: called with the route's {@link PageProps}. */
export type Page<Data, State> = (props: PageProps<Data, State>) => ComponentChildren;

/**
 * What a page of a route with `Handler` receives as `data`: what the handler gives
 * `page()`, or undefined for a page without a handler.
 */
export type PageData<Handler> = [Handler] extends [never] ? undefined : RouteData<Handler>;

/** The typing helpers {@link createDefine} returns; each returns its argument as it is. */
export interface Define<State> {
  /**
   * Type a route's `handler`: an object of methods or one function of `ctx`. The data a
   * handler gives `page()` is inferred, or checked against the type argument when given.
   *
   * @example
   * ```ts
   * import { createDefine } from "./define.ts";
   * import { page } from "./handlers.ts";
   *
   * const define = createDefine<{ user: string | null }>();
   *
   * const handler = define.handlers<{ n: number }>({
   *   GET() {
   *     return page({ n: 42 });
   *   },
   *   POST(ctx) {
   *     return Response.json({ by: ctx.state.user });
   *   },
   * });
   * ```
   */
  handlers<Data, Handlers extends RouteHandler<Data, State> = RouteHandler<Data, State>>(
    handlers: Handlers,
  ): typeof handlers;

  /**
   * Type a page component. Pass the route's handler as the type argument
   * (`typeof handler`) and the page receives its data; without one the page receives
   * `undefined`, as a page without a handler does. In advanced cases, give `never` and the
   * data type itself.
   *
   * @example
   * ```tsx
   * import { createDefine } from "./define.ts";
   * import { page } from "./handlers.ts";
   *
   * const define = createDefine<{ user: string | null }>();
   *
   * const handler = define.handlers({ GET: () => page({ n: 42 }) });
   * const Count = define.page<typeof handler>(({ data }) => <p>{data.n + 1}</p>);
   * const About = define.page(({ state }) => <p>{state.user}</p>);
   * const Listed = define.page<never, string[]>(({ data }) => <p>{data.join(", ")}</p>);
   * ```
   */
  page<
    // deno-lint-ignore no-explicit-any
    Handler extends RouteHandler<any, State> = never,
    Data = PageData<Handler>,
  >(render: Page<Data, State>): typeof render;

  /**
   * Type a `_layout` (or `_app`) component, which wraps `Component`.
   *
   * @example
   * ```tsx
   * import { createDefine } from "./define.ts";
   *
   * const define = createDefine<{ user: string | null }>();
   *
   * const Layout = define.layout(({ Component, state }) => (
   *   <main data-user={state.user ?? ""}>
   *     <Component />
   *   </main>
   * ));
   * ```
   */
  layout(render: Page<unknown, State>): typeof render;

  /**
   * Type a `_middleware` handler, or a list of them.
   *
   * @example
   * ```ts
   * import { createDefine } from "./define.ts";
   *
   * const define = createDefine<{ user: string | null }>();
   *
   * const middleware = define.middleware(async (ctx) => {
   *   ctx.state.user = ctx.req.headers.get("x-user");
   *   return await ctx.next();
   * });
   * ```
   */
  middleware<M extends Middleware<State> | Middleware<State>[]>(middleware: M): typeof middleware;
}

/**
 * Create the typing helpers for an app whose `ctx.state` is `State`; call it once and
 * export the result for the routes to import.
 *
 * @example
 * ```ts
 * import { createDefine } from "./define.ts";
 *
 * interface AppState {
 *   user: string | null;
 * }
 * const define = createDefine<AppState>();
 * ```
 */
export function createDefine<State>(): Define<State> {
  return { handlers: same, page: same, layout: same, middleware: same };
}

function same<T>(value: T): T {
  return value;
}

/**
 * `define`: type a route's handlers, page and middleware once per app, as Fresh 2's
 * `createDefine()` does, instead of spelling `Handlers<Data, AppState>` in every route.
 * Each helper returns what it is given; only the types change.
 *
 * Our `ctx.render(data)` returns a plain `Response` (Fresh 1's shape), so the page data
 * cannot be read off the handler's return type as Fresh 2 does with its `PageResponse`:
 * name it once with `define.handlers<Data>(…)` and let the page take it from the handler
 * with `define.page<typeof handler>(…)`.
 *
 * @example
 * ```tsx
 * import { createDefine } from "./define.ts";
 *
 * const define = createDefine<{ user: string | null }>();
 *
 * const handler = define.handlers<{ title: string }>({
 *   GET(_req, ctx) {
 *     return ctx.render({ title: `Hello ${ctx.state.user ?? "visitor"}` });
 *   },
 * });
 *
 * const Page = define.page<typeof handler>(({ data }) => <h1>{data.title}</h1>);
 * ```
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import type { FreshContext, Handler, Handlers, MiddlewareHandler } from "./legacy.ts";
import type { PageProps } from "./types.ts";

/** The HTTP methods a {@link Handlers} object may define. */
type Method = keyof Handlers;

/**
 * The page data a type argument of {@link Define.page} stands for: the `Data` of a
 * handler function or of an object whose keys are all HTTP methods, else the type itself.
 */
export type PageData<T> = T extends (req: Request, ctx: FreshContext<never, infer D>) => unknown ? D
  : [keyof T] extends [never] ? T
  : [Exclude<keyof T, Method>] extends [never] ? T extends Handlers<infer D, never> ? D : T
  : T;

/** A page component: called with the route's {@link PageProps}. */
export type Page<Data, State> = (props: PageProps<Data, State>) => ComponentChildren;

/** The typing helpers {@link createDefine} returns; each returns its argument as it is. */
export interface Define<State> {
  /**
   * Type a route's `handler`: an object of methods or one function. Pass the data the
   * handlers give `ctx.render` as the type argument; without one it is `unknown`.
   *
   * @example
   * ```ts
   * import { createDefine } from "./define.ts";
   *
   * const define = createDefine<{ user: string | null }>();
   *
   * const handler = define.handlers<{ n: number }>({
   *   GET(_req, ctx) {
   *     return ctx.render({ n: 42 });
   *   },
   *   POST(_req, ctx) {
   *     return Response.json({ by: ctx.state.user });
   *   },
   * });
   * ```
   */
  handlers<Data = unknown>(handlers: Handlers<Data, State>): Handlers<Data, State>;
  handlers<Data = unknown>(handler: Handler<Data, State>): Handler<Data, State>;

  /**
   * Type a page component. The type argument is either the route's handler
   * (`typeof handler`, whose data the page then receives) or the data itself; without
   * one the page receives `undefined`, as a page without a handler does.
   *
   * @example
   * ```tsx
   * import { createDefine } from "./define.ts";
   *
   * const define = createDefine<{ user: string | null }>();
   *
   * const handler = define.handlers<{ n: number }>({
   *   GET: (_req, ctx) => ctx.render({ n: 42 }),
   * });
   * const Page = define.page<typeof handler>(({ data }) => <p>{data.n + 1}</p>);
   * const About = define.page(({ state }) => <p>{state.user}</p>);
   * const Listed = define.page<string[]>(({ data }) => <p>{data.join(", ")}</p>);
   * ```
   */
  page<T = undefined>(page: Page<PageData<T>, State>): Page<PageData<T>, State>;

  /**
   * Type a `_middleware` handler, or a list of them.
   *
   * @example
   * ```ts
   * import { createDefine } from "./define.ts";
   *
   * const define = createDefine<{ user: string | null }>();
   *
   * const handler = define.middleware(async (req, ctx) => {
   *   ctx.state.user = req.headers.get("x-user");
   *   return await ctx.next();
   * });
   * ```
   */
  middleware<M extends MiddlewareHandler<State> | MiddlewareHandler<State>[]>(middleware: M): M;
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
  return { handlers: same, page: same, middleware: same };
}

function same<T>(value: T): T {
  return value;
}

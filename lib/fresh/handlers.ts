/**
 * Route handlers as in Fresh 2: one function of the request's {@link Context} (catch-all)
 * or an object of them by method, each returning a `Response` or, for a route with a
 * page, {@link page}`(data)` — the data the page component renders.
 *
 * @module
 */
import type { Context } from "./context.ts";

/** The methods a {@link HandlerByMethod} object may answer. */
export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/** What a handler returns to have the route's page rendered: its data and response options. */
export interface PageResponse<T> {
  data: T;
  headers?: HeadersInit;
  status?: number;
}

/**
 * Render the route's page with `data`, answering with `options.status` (default 200) and
 * `options.headers`.
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
 *     return page({ greeting: `Hello ${ctx.state.user ?? "visitor"}` }, {
 *       headers: { "cache-control": "no-store" },
 *     });
 *   },
 * });
 *
 * const Greeting = define.page<typeof handler>(({ data }) => <h1>{data.greeting}</h1>);
 * ```
 */
export function page<T>(
  data: T,
  options?: { headers?: HeadersInit; status?: number },
): PageResponse<T>;
export function page(): PageResponse<undefined>;
export function page<T>(
  data?: T,
  options?: { headers?: HeadersInit; status?: number },
): PageResponse<T | undefined> {
  return { data, headers: options?.headers, status: options?.status };
}

/**
 * A handler: called with the request's context, it answers with a `Response` or with
 * {@link page}`(data)` for the route's page.
 */
export interface HandlerFn<Data, State> {
  (ctx: Context<State>):
    | Response
    | PageResponse<Data>
    | Promise<Response | PageResponse<Data>>;
}

/** Handlers by HTTP method; a method without one answers 405 (HEAD falls back to GET). */
export type HandlerByMethod<Data, State> = { [M in Method]?: HandlerFn<Data, State> };

/** A route module's `handler` export: one function for every method, or one per method. */
export type RouteHandler<Data, State> = HandlerFn<Data, State> | HandlerByMethod<Data, State>;

/**
 * The page data a route handler type gives its page: `RouteData<typeof handler>`.
 *
 * @example
 * ```ts
 * import { createDefine } from "./define.ts";
 * import { page, type RouteData } from "./handlers.ts";
 *
 * const define = createDefine<Record<string, never>>();
 * const handler = define.handlers({ GET: () => page({ n: 1 }) });
 * const data: RouteData<typeof handler> = { n: 2 };
 * ```
 */
// Any state: the data does not depend on it.
// deno-lint-ignore no-explicit-any
export type RouteData<Handler> = Handler extends HandlerFn<infer Data, any> ? Data
  // deno-lint-ignore no-explicit-any
  : Handler extends HandlerByMethod<infer Data, any> ? Data
  : never;

/**
 * True for what a handler returns to render its page (anything but a `Response`).
 *
 * @example
 * ```ts
 * import { isPageResponse, page } from "./handlers.ts";
 *
 * isPageResponse(page({ n: 1 })); // true
 * isPageResponse(new Response("hi")); // false
 * ```
 */
export function isPageResponse(value: Response | PageResponse<unknown>): value is PageResponse<
  unknown
> {
  return !(value instanceof Response);
}

/**
 * What route modules import from the Fresh-shaped layer, named as Fresh 2's `fresh`
 * module names it: `page`, `HttpError`, `createDefine` and the route types. (`Head` is in
 * ./head.ts and `asset` in ./assets.ts, where Fresh 2 has `fresh/runtime`.)
 *
 * @example
 * ```tsx
 * import { createDefine, HttpError, page } from "./mod.ts";
 *
 * const define = createDefine<{ user: string | null }>();
 *
 * const handler = define.handlers({
 *   GET(ctx) {
 *     if (ctx.params.id !== "1") throw new HttpError(404);
 *     return page({ id: ctx.params.id });
 *   },
 * });
 *
 * const Item = define.page<typeof handler>(({ data }) => <h1>{data.id}</h1>);
 * ```
 *
 * @module
 */
export type { Context } from "./context.ts";
export { createDefine, type Define } from "./define.ts";
export { HttpError, type HttpErrorOptions } from "./error.ts";
export {
  type HandlerByMethod,
  type HandlerFn,
  type Method,
  page,
  type PageResponse,
  type RouteData,
  type RouteHandler,
} from "./handlers.ts";
export type { Middleware, PageProps, RouteConfig } from "./types.ts";

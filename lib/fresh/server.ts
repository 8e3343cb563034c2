/**
 * The request handler built from a manifest: match a route, run the folder middleware
 * chain, dispatch by method (HEAD from GET, 405 with `Allow`), render pages, and fall
 * back to `_404` / `_500`.
 *
 * @module
 */
import { type BuildInfo, setBuildId } from "./assets.ts";
import { installIslandHooks, registerIslands } from "./islands.ts";
import { renderDocument } from "./render.ts";
import { compileRoutes, matchRoute, type RouteTable } from "./routes.ts";
import type {
  FreshContext,
  Handler,
  Handlers,
  Manifest,
  MiddlewareHandler,
  PageProps,
  RouteModule,
} from "./types.ts";

/** Options of {@link createFreshHandler}. */
export interface FreshOptions {
  build: BuildInfo;
  /** Title used when a page sets none with `<Head>`. */
  defaultTitle?: string;
  /** Turn an error thrown by a handler into a response; return null to render `_500`. */
  onError?: (err: unknown, req: Request, ctx: FreshContext) => Response | null;
  /** Plain responses for not-found and errors on machine-facing paths (e.g. `/api/`). */
  plainErrors?: (url: URL) => boolean;
}

/** What the caller supplies per request. */
export interface RequestInit {
  state: Record<string, unknown>;
  remoteAddr?: { hostname: string; port: number };
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** A handler function bound to a manifest. */
export type FreshHandler = ((req: Request, init: RequestInit) => Promise<Response>) & {
  table: RouteTable;
};

/**
 * Build the handler for a manifest.
 *
 * @example
 * ```ts
 * import type { BuildInfo } from "./assets.ts";
 * import { createFreshHandler } from "./server.ts";
 * import type { Manifest } from "./types.ts";
 *
 * declare const manifest: Manifest;
 * declare const build: BuildInfo;
 * const handle = createFreshHandler(manifest, { build });
 * const res = await handle(new Request("http://x/"), { state: {} });
 * ```
 */
export function createFreshHandler(manifest: Manifest, options: FreshOptions): FreshHandler {
  installIslandHooks();
  setBuildId(options.build.buildId);
  registerIslands(manifest.islands);
  const table = compileRoutes(manifest.routes);
  const defaultTitle = options.defaultTitle ?? "";
  const plain = options.plainErrors ?? (() => false);

  function page(
    module: RouteModule | undefined,
    layouts: RouteModule[],
    props: PageProps<unknown, unknown>,
    init?: ResponseInit,
  ): Response {
    if (!module?.default) {
      return new Response("Not Found", { status: 404 });
    }
    const html = renderDocument({
      page: module.default,
      props,
      layouts,
      app: table.app,
      skipApp: module.config?.skipAppWrapper,
      build: options.build,
      defaultTitle,
    });
    const headers = new Headers(init?.headers);
    headers.set("content-type", "text/html; charset=utf-8");
    return new Response(html, { status: init?.status ?? 200, headers });
  }

  const handle = async (req: Request, init: RequestInit): Promise<Response> => {
    const url = new URL(req.url);
    const hit = matchRoute(table, url.pathname);
    const remoteAddr = init.remoteAddr ?? { hostname: "127.0.0.1", port: 0 };
    const route = hit?.route.pattern ?? null;
    const params = hit?.params ?? {};
    // One state per request: a middleware may replace `ctx.state` with a new object, and
    // every later middleware, the handler and the page see the replacement.
    let state = init.state;

    const renderNotFound = (data?: unknown): Response => {
      if (plain(url)) {
        return Response.json({ error: "Not found" }, { status: 404 });
      }
      const props = { url, params: {}, data, state, route: null };
      return page(table.notFound, [], props, { status: 404 });
    };

    const render = (data?: unknown, responseInit?: ResponseInit): Response =>
      page(
        hit?.route.module,
        hit?.route.layouts ?? [],
        { url, params, data, state, route },
        responseInit,
      );

    // Each middleware gets its own `next`; `state` reads and writes the request's one slot.
    const contextWith = (next: () => Promise<Response>): FreshContext => ({
      req,
      url,
      params,
      get state() {
        return state;
      },
      set state(value) {
        state = value;
      },
      route,
      destination: route === null ? "notFound" : "route",
      remoteAddr,
      render,
      renderNotFound,
      next,
    });

    const ctx = contextWith(() =>
      Promise.reject(new Error("next() is only available in middleware"))
    );
    const middlewares = hit ? hit.route.middlewares : table.rootMiddlewares;
    const final = hit
      ? () => dispatch(hit.route.module, req, ctx)
      : () => Promise.resolve(renderNotFound());

    const run = (i: number): Promise<Response> => {
      if (i >= middlewares.length) return final();
      const mw = middlewares[i] as MiddlewareHandler;
      return Promise.resolve(mw(req, contextWith(() => run(i + 1))));
    };

    let res: Response;
    try {
      res = await run(0);
    } catch (err) {
      res = options.onError?.(err, req, ctx) ?? errorPage(err, url, state);
    }
    if (req.method === "HEAD" && res.body) {
      return new Response(null, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    }
    return res;
  };

  function errorPage(
    err: unknown,
    url: URL,
    state: Record<string, unknown>,
  ): Response {
    console.error("Unhandled error", url.pathname, err);
    if (plain(url) || !table.error?.default) {
      return Response.json({ error: "Internal server error" }, { status: 500 });
    }
    try {
      return page(
        table.error,
        [],
        {
          url,
          params: {},
          data: undefined,
          state,
          route: null,
        },
        { status: 500 },
      );
    } catch (renderErr) {
      console.error("The _500 page failed to render", renderErr);
      return new Response("Internal server error", { status: 500 });
    }
  }

  const out = handle as FreshHandler;
  out.table = table;
  return out;
}

/** Methods a route module answers, for `Allow`. */
export function allowedMethods(module: RouteModule): string[] {
  const h = module.handler;
  if (typeof h === "function") return [...METHODS];
  const set = new Set<string>();
  const obj = (h ?? {}) as Handlers;
  for (const m of METHODS) if (obj[m]) set.add(m);
  if (module.default) set.add("GET");
  if (set.has("GET")) set.add("HEAD");
  return METHODS.filter((m) => set.has(m));
}

async function dispatch(module: RouteModule, req: Request, ctx: FreshContext): Promise<Response> {
  const h = module.handler;
  if (typeof h === "function") return await (h as Handler)(req, ctx);
  const obj = (h ?? {}) as Handlers;
  const method = req.method.toUpperCase() as keyof Handlers;
  let fn: Handler | undefined = obj[method] as Handler | undefined;
  if (!fn && method === "HEAD") fn = obj.GET as Handler | undefined;
  if (!fn && (method === "GET" || method === "HEAD") && module.default) {
    fn = (_req, c) => c.render(undefined);
  }
  if (!fn) {
    return new Response(JSON.stringify({ error: "Method not allowed" }), {
      status: 405,
      headers: {
        allow: allowedMethods(module).join(", "),
        "content-type": "application/json",
      },
    });
  }
  return await fn(req, ctx);
}

/**
 * The request handler built from a manifest: match a route, run the folder middleware
 * chain, dispatch by method (HEAD from GET, 405 with `Allow`), render pages, and fall
 * back to `_404` / `_500`.
 *
 * @module
 */
import type { ComponentType } from "preact";
import { type BuildInfo, setBuildId } from "./assets.ts";
import { type Context, LOOPBACK_INFO, redirectResponse } from "./context.ts";
import { HttpError } from "./error.ts";
import {
  type HandlerByMethod,
  type HandlerFn,
  type Method,
  page,
  type PageResponse,
} from "./handlers.ts";
import { installIslandHooks, islandLoader, registerIslands } from "./islands.ts";
import { renderDocument } from "./render.ts";
import {
  type CompiledRoute,
  compileRoutes,
  type LoadedRoute,
  matchRoute,
  type RootParts,
  type RouteTable,
} from "./routes.ts";
import type { Manifest, Middleware, PageProps, RouteConfig, RouteModule } from "./types.ts";

/** Options of {@link createFreshHandler}. */
export interface FreshOptions {
  build: BuildInfo;
  /** Title used when a page sets none with `<Head>`. */
  defaultTitle?: string;
  /**
   * Answer an error thrown by middleware or a handler (`ctx.error` holds it too); null
   * leaves it to the server: an `HttpError` 404 renders `_404`, anything else `_500` (with
   * the `HttpError`'s own status when it is a 4xx).
   */
  onError?: (err: unknown, ctx: Context<unknown>) => Response | null;
  /** Plain responses for not-found and errors on machine-facing paths (e.g. `/api/`). */
  plainErrors?: (url: URL) => boolean;
  /**
   * The rule every `[param]` of a route must pass (its decoded value, and its name, for a
   * rule that differs by what the parameter is); a request whose params fail it matches no
   * route, so it is a 404 before any route middleware or handler runs. `[...rest]` params
   * are not checked. Default: every value passes.
   */
  validParam?: (value: string, name: string) => boolean;
}

/** What the caller supplies per request. */
export interface RequestScope {
  /** The request's `ctx.state` as the first middleware sees it. */
  state: Record<string, unknown>;
  /** The connection (`Deno.serve`'s second argument); a loopback address when absent. */
  info?: Deno.ServeHandlerInfo;
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** A handler function bound to a manifest. */
export type FreshHandler = ((req: Request, scope: RequestScope) => Promise<Response>) & {
  table: RouteTable;
};

/** `ctx.config` of a route without one (and of no route). */
const NO_CONFIG: RouteConfig = Object.freeze({});

/** What every context of one request shares: its state, what was thrown, the route's config. */
interface RequestSlots {
  state: Record<string, unknown>;
  error: unknown;
  config: RouteConfig;
}

/**
 * A middleware's or handler's `ctx`: its own `next`, the request's shared slots behind
 * accessors on the prototype (an object literal with accessors made seven closures per
 * context, two or more contexts a request).
 */
class RequestContext implements Context<unknown> {
  readonly #slots: RequestSlots;
  constructor(
    slots: RequestSlots,
    readonly req: Request,
    readonly url: URL,
    readonly params: Record<string, string>,
    readonly route: string | null,
    readonly info: Deno.ServeHandlerInfo,
    readonly next: () => Promise<Response>,
  ) {
    this.#slots = slots;
  }
  get state(): unknown {
    return this.#slots.state;
  }
  set state(value: unknown) {
    this.#slots.state = value as Record<string, unknown>;
  }
  get error(): unknown {
    return this.#slots.error;
  }
  set error(value: unknown) {
    this.#slots.error = value;
  }
  get config(): RouteConfig {
    return this.#slots.config;
  }
  redirect(pathOrUrl: string, status?: number): Response {
    return redirectResponse(pathOrUrl, status);
  }
}

/** What a page component gets as `Component` when nothing is inside it. */
const Nothing = () => null;

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
  // Islands given as loaders load with the first route whose files reach them.
  const table = compileRoutes(manifest.routes, {
    beforeUse: islandLoader(manifest.islands, manifest.routeIslands ?? {}),
  });
  const defaultTitle = options.defaultTitle ?? "";
  const plain = options.plainErrors ?? (() => false);
  const validParam = options.validParam;
  const paramsPass = (route: CompiledRoute, params: Record<string, string>): boolean =>
    !validParam ||
    route.segments.every((s) => s.kind !== "param" || validParam(params[s.name] ?? "", s.name));

  function renderPage(
    root: RootParts,
    module: RouteModule | undefined,
    layouts: RouteModule[],
    props: PageProps,
    init?: { status?: number; headers?: HeadersInit },
  ): Response {
    if (!module?.default) {
      return new Response("Not Found", { status: 404 });
    }
    const html = renderDocument({
      page: module.default as ComponentType<PageProps<unknown, never>>,
      props,
      layouts,
      app: root.app,
      skipApp: module.config?.skipAppWrapper,
      build: options.build,
      defaultTitle,
    });
    const headers = new Headers(init?.headers);
    headers.set("content-type", "text/html; charset=utf-8");
    return new Response(html, { status: init?.status ?? 200, headers });
  }

  const handle = async (req: Request, scope: RequestScope): Promise<Response> => {
    const url = new URL(req.url);
    const matched = matchRoute(table, url.pathname);
    const hit = matched && paramsPass(matched.route, matched.params) ? matched : null;
    const info = scope.info ?? LOOPBACK_INFO;
    const route = hit?.route.pattern ?? null;
    const params = hit?.params ?? {};
    // One state per request: a middleware may replace `ctx.state` with a new object, and
    // every later middleware, the handler and the page see the replacement.
    const slots: RequestSlots = { state: scope.state, error: null, config: NO_CONFIG };
    // `_app`, `_404`, `_500`, the root middleware and the route's own modules are imported
    // by the first request that needs them (then kept): nothing of them loads at start-up.
    let root: RootParts = { rootMiddlewares: [] };
    let loaded: LoadedRoute | null = null;

    /** Props of the route's page, or (`special`) of `_404` / `_500`, which match no route. */
    const propsOf = (data: unknown, special = false): PageProps => ({
      data,
      url,
      req,
      params: special ? {} : params,
      info,
      state: slots.state,
      route: special ? null : route,
      error: slots.error,
      Component: Nothing,
    });

    /** `_404` (plain JSON on a machine-facing path), with the headers of a thrown 404. */
    const renderNotFound = (headers?: HeadersInit): Response => {
      if (plain(url)) {
        return Response.json({ error: "Not found" }, { status: 404, headers });
      }
      return renderPage(root, root.notFound, [], propsOf(undefined, true), {
        status: 404,
        headers,
      });
    };

    const renderRoutePage = (result: PageResponse<unknown>): Response =>
      renderPage(root, loaded?.module, loaded?.layouts ?? [], propsOf(result.data), result);

    // Each middleware gets its own `next`; `state` reads and writes the request's one slot.
    const contextWith = (next: () => Promise<Response>): Context<unknown> =>
      new RequestContext(slots, req, url, params, route, info, next);

    const ctx = contextWith(() =>
      Promise.reject(new Error("next() is only available in middleware"))
    );
    const final = async (): Promise<Response> => {
      if (!loaded) {
        // As Fresh 2: no route is a 404, which `_404` sees as its `error`.
        slots.error = new HttpError(404);
        return renderNotFound();
      }
      const result = await dispatch(loaded.module, ctx);
      return result instanceof Response ? result : renderRoutePage(result);
    };

    let middlewares: Middleware<unknown>[] = [];
    const run = (i: number): Promise<Response> => {
      if (i >= middlewares.length) return final();
      const middleware = middlewares[i];
      return Promise.resolve(middleware(contextWith(() => run(i + 1))));
    };

    let res: Response;
    try {
      root = table.rootLoaded ?? await table.root();
      if (hit) loaded = hit.route.loaded ?? await hit.route.load();
      slots.config = loaded?.module.config ?? NO_CONFIG;
      middlewares = loaded ? loaded.middlewares : root.rootMiddlewares;
      res = await run(0);
    } catch (err) {
      slots.error = err;
      res = options.onError?.(err, ctx) ??
        (err instanceof HttpError && err.status === 404
          ? renderNotFound(err.headers)
          : errorPage(root, err, propsOf(undefined, true)));
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

  function errorPage(root: RootParts, err: unknown, props: PageProps): Response {
    // A client error left to a page (`onError` returned null) is no failure of the server:
    // `_500` shows it with its own status and headers, and nothing is logged.
    const clientError = err instanceof HttpError && err.status < 500 ? err : null;
    if (!clientError) console.error("Unhandled error", props.url.pathname, err);
    if (plain(props.url) || !root.error?.default) {
      return Response.json({ error: "Internal server error" }, { status: 500 });
    }
    try {
      return renderPage(root, root.error, [], props, {
        status: clientError?.status ?? 500,
        headers: clientError?.headers,
      });
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
  const obj = (h ?? {}) as HandlerByMethod<unknown, unknown>;
  for (const m of METHODS) if (obj[m]) set.add(m);
  if (module.default) set.add("GET");
  if (set.has("GET")) set.add("HEAD");
  return METHODS.filter((m) => set.has(m));
}

async function dispatch(
  module: RouteModule,
  ctx: Context<unknown>,
): Promise<Response | PageResponse<unknown>> {
  const h = module.handler;
  if (typeof h === "function") return await (h as HandlerFn<unknown, unknown>)(ctx);
  const obj = (h ?? {}) as HandlerByMethod<unknown, unknown>;
  const method = ctx.req.method.toUpperCase() as Method;
  let fn = obj[method];
  if (!fn && method === "HEAD") fn = obj.GET;
  if (!fn && (method === "GET" || method === "HEAD") && module.default) return page();
  if (!fn) {
    return new Response(JSON.stringify({ error: "Method not allowed" }), {
      status: 405,
      headers: {
        allow: allowedMethods(module).join(", "),
        "content-type": "application/json",
      },
    });
  }
  return await fn(ctx);
}

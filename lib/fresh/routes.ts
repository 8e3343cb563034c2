/**
 * From file names to a matching table, with Fresh's rules: `index` is the folder itself,
 * `[param]` one segment, `[...rest]` any number of segments, `(group)` folders add no
 * path segment but scope their `_layout` and `_middleware`; static segments sort before
 * params and rest comes last.
 *
 * The table is built from file names alone: a route's module (and its folders'
 * `_middleware` and `_layout` modules) may be a loader, imported when a request first
 * matches the route, so start-up loads no route code at all (main.ts's start-up budget).
 *
 * @module
 */
import type { Middleware, RouteModule, RouteSource } from "./types.ts";

/** One segment of a route path, classified for sorting. */
type Segment = { kind: "static"; text: string } | { kind: "param" | "rest"; name: string };

/** What a route needs to answer, once its modules are loaded. */
export interface LoadedRoute {
  module: RouteModule;
  /** Middleware from the root folder down to the route's folder. */
  middlewares: Middleware<unknown>[];
  /** `_layout` modules from the root folder down, honouring `skipInheritedLayouts`. */
  layouts: RouteModule[];
}

/** A page or API route compiled from one file. */
export interface CompiledRoute {
  /** `./routes/questions/[id].tsx` */
  file: string;
  /** `/questions/:id` */
  pattern: string;
  segments: Segment[];
  /** The route's URL pattern, compiled on first use. */
  readonly matcher: URLPattern;
  /**
   * True when segment-by-segment comparison decides this route exactly as its URL pattern
   * does on a canonical path (literal segments of plain text, `[param]`s, no `[...rest]`):
   * see {@link matchRoute}.
   */
  segmentwise: boolean;
  /** The route's modules, imported on the first call (shared by every later one). */
  load(): Promise<LoadedRoute>;
  /** What {@link load} resolved to, once it has: requests after the first skip the await. */
  loaded?: LoadedRoute;
}

/** `_app`, `_404`, `_500` and the root folder's middleware, once loaded. */
export interface RootParts {
  app?: RouteModule;
  notFound?: RouteModule;
  error?: RouteModule;
  /** Middleware of the root folder, used for the not-found page. */
  rootMiddlewares: Middleware<unknown>[];
}

/** Special file names that are not routes. */
const SPECIAL = new Set(["_app", "_layout", "_middleware", "_404", "_500"]);

/** `./routes/a/(g)/b.tsx` → `["a", "(g)", "b"]` (extension dropped). */
function fileSegments(file: string): string[] {
  const rel = file.replace(/^\.\/routes\//, "").replace(/\.(tsx|ts|jsx|js)$/, "");
  return rel.split("/");
}

function parseSegment(seg: string): Segment {
  const rest = /^\[\.\.\.([A-Za-z_][A-Za-z0-9_]*)\]$/.exec(seg);
  if (rest) return { kind: "rest", name: rest[1] };
  const param = /^\[([A-Za-z_][A-Za-z0-9_]*)\]$/.exec(seg);
  if (param) return { kind: "param", name: param[1] };
  return { kind: "static", text: seg };
}

/**
 * The URL pattern of a route file.
 *
 * @example
 * ```ts
 * import { routePattern } from "./routes.ts";
 *
 * routePattern("./routes/(main)/questions/[id].tsx"); // "/questions/:id"
 * routePattern("./routes/docs/[...path].tsx");        // "/docs/:path*"
 * ```
 */
export function routePattern(file: string): { pattern: string; segments: Segment[] } {
  const parts = fileSegments(file).filter((s) => !/^\(.+\)$/.test(s));
  if (parts.at(-1) === "index") parts.pop();
  const segments = parts.map(parseSegment);
  const pattern = "/" +
    segments.map((s) =>
      s.kind === "static" ? s.text : s.kind === "param" ? `:${s.name}` : `:${s.name}*`
    ).join("/");
  // URLPattern's `/:rest*` also matches the folder itself ("/docs"), as Fresh's rest does.
  return { pattern, segments };
}

const RANK = { static: 0, param: 1, rest: 2 } as const;

/**
 * Order routes so the most specific wins: compared segment by segment, static before
 * param before rest; when one path is a prefix of the other, the shorter comes first.
 */
export function compareRoutes(a: { segments: Segment[] }, b: { segments: Segment[] }): number {
  const n = Math.max(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const sa = a.segments[i];
    const sb = b.segments[i];
    const ra = sa ? RANK[sa.kind] : -1;
    const rb = sb ? RANK[sb.kind] : -1;
    if (ra !== rb) return ra - rb;
    if (sa?.kind === "static" && sb?.kind === "static" && sa.text !== sb.text) {
      return sa.text < sb.text ? -1 : 1;
    }
  }
  return 0;
}

function isAncestorFolder(ancestor: string[], folder: string[]): boolean {
  return ancestor.length <= folder.length && ancestor.every((s, i) => folder[i] === s);
}

/** A `_middleware` file's middleware: its default export (Fresh 2's) or its `handler`. */
function middlewaresOf(module: RouteModule): Middleware<unknown>[] {
  const h = module.handler ?? module.default;
  if (!h) return [];
  return (Array.isArray(h) ? h : [h]) as Middleware<unknown>[];
}

/** Options of {@link compileRoutes}. */
export interface CompileOptions {
  /**
   * Called with a route's files (the route, its folders' `_middleware` and `_layout`; or
   * the root's `_app`, `_404`, `_500` and `_middleware`) when they are first loaded; what
   * it returns is awaited with them (the server loads the files' islands here).
   */
  beforeUse?: (files: string[]) => Promise<void> | undefined;
}

/** The route table built from a manifest's `routes`. */
export interface RouteTable {
  routes: CompiledRoute[];
  /** `_app`, `_404`, `_500` and the root middleware, imported on the first call. */
  root(): Promise<RootParts>;
  /** What {@link root} resolved to, once it has. */
  rootLoaded?: RootParts;
}

/**
 * One loader per file: a module given as such is checked now; a loader's module is
 * imported once, on first use, and checked then. A failed import is tried again next time.
 */
function loaderOf(file: string, source: RouteSource): () => Promise<RouteModule> {
  if (typeof source !== "function") {
    checkOneParameter(file, source);
    const ready = Promise.resolve(source);
    return () => ready;
  }
  let loading: Promise<RouteModule> | null = null;
  return () =>
    loading ??= source().then((module) => {
      checkOneParameter(file, module);
      return module;
    }).catch((err) => {
      loading = null;
      throw err;
    });
}

/**
 * Every route module of a manifest, imported: for what reads all of them (the OpenAPI
 * document, tests), never for serving.
 *
 * @example
 * ```ts
 * import { loadRouteModules } from "./routes.ts";
 * import type { RouteSource } from "./types.ts";
 *
 * declare const routes: Record<string, RouteSource>;
 * const modules = await loadRouteModules(routes);
 * Object.values(modules).filter((m) => m.docs !== undefined);
 * ```
 */
export async function loadRouteModules(
  routes: Record<string, RouteSource>,
): Promise<Record<string, RouteModule>> {
  const entries = await Promise.all(
    Object.entries(routes).map(async ([file, source]) =>
      [file, typeof source === "function" ? await source() : source] as const
    ),
  );
  return Object.fromEntries(entries);
}

/**
 * Start importing the route modules of `files` without waiting for them: what a request
 * would import first, begun while start-up still waits on other things (main.ts: the
 * configuration, KV). A failed import is left to the request that needs the module, whose
 * loader tries again and reports it.
 *
 * @example
 * ```ts
 * import { preloadRoutes } from "./routes.ts";
 * import type { RouteSource } from "./types.ts";
 *
 * declare const routes: Record<string, RouteSource>;
 * preloadRoutes(routes, ["./routes/_app.tsx", "./routes/index.tsx"]);
 * ```
 */
export function preloadRoutes(routes: Record<string, RouteSource>, files: string[]): void {
  for (const file of files) {
    const source = routes[file];
    if (typeof source === "function") source().catch(() => {});
  }
}

/**
 * Throw when a handler or middleware of `file` declares more than one parameter: Fresh 2's
 * take `ctx` alone (the request is `ctx.req`), and one written as Fresh 1's `(req, ctx)`
 * would be handed the context as its request.
 */
function checkOneParameter(file: string, module: RouteModule): void {
  const h = module.handler ?? (/(^|\/)_middleware\.[jt]sx?$/.test(file) ? module.default : null);
  const fns: [string, unknown][] = typeof h === "function"
    ? [["handler", h]]
    : Array.isArray(h)
    ? h.map((fn, i) => [`middleware ${i}`, fn])
    : Object.entries(h ?? {});
  for (const [name, fn] of fns) {
    if (typeof fn === "function" && fn.length > 1) {
      throw new Error(
        `${file}: ${name} declares ${fn.length} parameters; handlers and middleware take one, ctx (the request is ctx.req)`,
      );
    }
  }
}

/**
 * Compile a manifest's routes into a sorted table, from their file names: modules given
 * as loaders are imported when a request first needs them. Throws when two files claim
 * the same pattern, since one of them could never be reached; a handler written in Fresh
 * 1's `(req, ctx)` shape is refused when its module is checked (at once for a module, on
 * first load for a loader).
 */
export function compileRoutes(
  modules: Record<string, RouteSource>,
  options: CompileOptions = {},
): RouteTable {
  // Each file's segments are split once: this runs on a new instance's start path, where
  // splitting them again for every special file and route cost ~2 ms of cold code.
  const entries = Object.entries(modules).map(([file, source]) => {
    const parts = fileSegments(file);
    return { file, name: parts.at(-1)!, folder: parts.slice(0, -1), load: loaderOf(file, source) };
  });
  const beforeUse = options.beforeUse ?? (() => undefined);
  const specials = new Map<
    string,
    { file: string; folder: string[]; load: () => Promise<RouteModule> }[]
  >();
  const special = (name: string) => {
    let found = specials.get(name);
    if (!found) {
      found = entries.filter((e) => e.name === name).map(({ file, folder, load }) => ({
        file,
        folder,
        load,
      })).sort((a, b) => a.folder.length - b.folder.length);
      specials.set(name, found);
    }
    return found;
  };
  const middlewareFiles = special("_middleware");
  const layoutFiles = special("_layout");
  const routes: CompiledRoute[] = [];
  const seen = new Map<string, string>();
  for (const { file, name, folder, load } of entries) {
    if (SPECIAL.has(name)) continue;
    const { pattern, segments } = routePattern(file);
    const previous = seen.get(pattern);
    if (previous) throw new Error(`Routes ${previous} and ${file} both match ${pattern}`);
    seen.set(pattern, file);
    const ownMiddlewares = middlewareFiles.filter((m) => isAncestorFolder(m.folder, folder));
    const ownLayouts = layoutFiles.filter((l) => isAncestorFolder(l.folder, folder));
    let loading: Promise<LoadedRoute> | null = null;
    let matcher: URLPattern | null = null;
    const route: CompiledRoute = {
      file,
      pattern,
      segments,
      segmentwise: segments.every((s) =>
        s.kind === "param" || (s.kind === "static" && PLAIN.test(s.text))
      ),
      // Built when a request first gets past `mayMatch` for this route: compiling every
      // route's URLPattern at start-up cost a fresh instance more than its routing ever does.
      get matcher() {
        return matcher ??= new URLPattern({ pathname: pattern });
      },
      load: () =>
        loading ??= (async () => {
          const [module, middlewareModules, layoutModules] = await Promise.all([
            load(),
            Promise.all(ownMiddlewares.map((m) => m.load())),
            Promise.all(ownLayouts.map((l) => l.load())),
          ]);
          // After the modules: the islands they import are loaded by now, so this only
          // finds them (an island's own import() started beside them would load it again).
          await beforeUse([
            file,
            ...ownMiddlewares.map((m) => m.file),
            ...ownLayouts.map((l) => l.file),
          ]);
          let layouts = layoutModules;
          // A route opting out gets no layout; a layout opting out cuts off those above it.
          if (module.config?.skipInheritedLayouts) layouts = [];
          const cut = layouts.findLastIndex((l) => l.config?.skipInheritedLayouts);
          if (cut > 0) layouts = layouts.slice(cut);
          route.loaded = { module, middlewares: middlewareModules.flatMap(middlewaresOf), layouts };
          return route.loaded;
        })().catch((err) => {
          loading = null;
          throw err;
        }),
    };
    routes.push(route);
  }
  routes.sort(compareRoutes);
  const atRoot = (name: string) => special(name).find((s) => s.folder.length === 0);
  const one = (name: string) => atRoot(name)?.load();
  const rootMiddlewareFiles = middlewareFiles.filter((m) => m.folder.length === 0);
  const rootFiles = [
    ...["_app", "_404", "_500"].flatMap((name) => atRoot(name)?.file ?? []),
    ...rootMiddlewareFiles.map((m) => m.file),
  ];
  let loadingRoot: Promise<RootParts> | null = null;
  const table: RouteTable = {
    routes,
    root: () =>
      loadingRoot ??= (async () => {
        const [app, notFound, error, rootMiddlewares] = await Promise.all([
          one("_app"),
          one("_404"),
          one("_500"),
          Promise.all(rootMiddlewareFiles.map((m) => m.load())),
        ]);
        await beforeUse(rootFiles);
        table.rootLoaded = {
          app,
          notFound,
          error,
          rootMiddlewares: rootMiddlewares.flatMap(middlewaresOf),
        };
        return table.rootLoaded;
      })().catch((err) => {
        loadingRoot = null;
        throw err;
      }),
  };
  return table;
}

/**
 * Find the first route matching `pathname`, with its decoded params.
 *
 * @example
 * ```ts
 * import { compileRoutes, matchRoute } from "./routes.ts";
 *
 * const table = compileRoutes({ "./routes/questions/[id].tsx": { default: () => null } });
 * const hit = matchRoute(table, "/questions/q1");
 * hit?.params.id; // "q1"
 * ```
 */
export function matchRoute(
  table: RouteTable,
  pathname: string,
): { route: CompiledRoute; params: Record<string, string> } | null {
  const parts = pathname === "/" ? [] : pathname.split("/").slice(1);
  // A canonical path (what `new URL()` gives: no dot segments, every other character
  // escaped) is compared segment by segment where a route allows it, without URLPattern,
  // whose exec was the costly part of routing a request; anything else goes to the pattern.
  const canonical = CANONICAL_PATH.test(pathname) && !DOT_SEGMENT.test(pathname);
  for (const route of table.routes) {
    if (canonical && route.segmentwise) {
      const params = segmentParams(route.segments, parts);
      if (params) return { route, params };
      continue;
    }
    // Skip routes whose literal segments or segment count cannot match (a necessary
    // condition only, so the pattern still decides).
    if (!mayMatch(route.segments, parts)) continue;
    const m = route.matcher.exec({ pathname });
    if (!m) continue;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.pathname.groups)) {
      if (v === undefined) {
        params[k] = "";
        continue;
      }
      params[k] = decodeParam(v);
    }
    return { route, params };
  }
  return null;
}

/** Literal text URLPattern compares as written (no escaping differences). */
const PLAIN = /^[A-Za-z0-9._~-]+$/;

/** A path whose characters URLPattern's canonicalization leaves as they are. */
const CANONICAL_PATH = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/;

/** A segment starting with a dot, raw or escaped (`.`, `..` and kin are resolved by URLs). */
const DOT_SEGMENT = /\/(\.|%2e)/i;

/**
 * The decoded params of a route of literal and `[param]` segments for a canonical path's
 * parts, or null when it does not match — as its URL pattern decides: a literal equals its
 * part, a param takes one non-empty part, and there are as many parts as segments.
 */
function segmentParams(segments: Segment[], parts: string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  let params: Record<string, string> | null = null;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    const part = parts[i];
    if (seg.kind === "static") {
      if (seg.text !== part) return null;
      continue;
    }
    if (part === "") return null;
    params ??= {};
    params[seg.name] = decodeParam(part);
  }
  return params ?? {};
}

/** A param's value decoded; a malformed escape stays as written rather than failing. */
function decodeParam(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function mayMatch(segments: Segment[], parts: string[]): boolean {
  let rest = false;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    if (seg.kind === "rest") {
      rest = true;
      break;
    }
    if (i >= parts.length) return false;
    if (seg.kind === "static" && PLAIN.test(seg.text) && seg.text !== parts[i]) return false;
  }
  return rest || segments.length === parts.length;
}

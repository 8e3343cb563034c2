/**
 * From file names to a matching table, with Fresh's rules: `index` is the folder itself,
 * `[param]` one segment, `[...rest]` any number of segments, `(group)` folders add no
 * path segment but scope their `_layout` and `_middleware`; static segments sort before
 * params and rest comes last.
 *
 * @module
 */
import type { Middleware, RouteModule } from "./types.ts";

/** One segment of a route path, classified for sorting. */
type Segment = { kind: "static"; text: string } | { kind: "param" | "rest"; name: string };

/** A page or API route compiled from one file. */
export interface CompiledRoute {
  /** `./routes/questions/[id].tsx` */
  file: string;
  /** `/questions/:id` */
  pattern: string;
  segments: Segment[];
  matcher: URLPattern;
  module: RouteModule;
  /** Middleware from the root folder down to the route's folder. */
  middlewares: Middleware<unknown>[];
  /** `_layout` modules from the root folder down, honouring `skipInheritedLayouts`. */
  layouts: RouteModule[];
}

/** Special file names that are not routes. */
const SPECIAL = new Set(["_app", "_layout", "_middleware", "_404", "_500"]);

/** `./routes/a/(g)/b.tsx` → `["a", "(g)", "b"]` (extension dropped). */
function fileSegments(file: string): string[] {
  const rel = file.replace(/^\.\/routes\//, "").replace(/\.(tsx|ts|jsx|js)$/, "");
  return rel.split("/");
}

/** The folder of a route file as segments, including groups: `["a", "(g)"]`. */
function folderOf(file: string): string[] {
  return fileSegments(file).slice(0, -1);
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

/** True when `file` is a special file (`_app`, `_layout`, …) rather than a route. */
function isSpecialFile(file: string): boolean {
  return SPECIAL.has(fileSegments(file).at(-1)!);
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

/** The route table built from a manifest's `routes`. */
export interface RouteTable {
  routes: CompiledRoute[];
  app?: RouteModule;
  notFound?: RouteModule;
  error?: RouteModule;
  /** Middleware of the root folder, used for the not-found page. */
  rootMiddlewares: Middleware<unknown>[];
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
 * Compile manifest route modules into a sorted table. Throws when two files claim the
 * same pattern, since one of them could never be reached, and when a handler is written
 * in Fresh 1's `(req, ctx)` shape.
 */
export function compileRoutes(modules: Record<string, RouteModule>): RouteTable {
  const entries = Object.entries(modules);
  for (const [file, module] of entries) checkOneParameter(file, module);
  const special = (name: string) =>
    entries.filter(([f]) => fileSegments(f).at(-1) === name).map(([f, m]) => ({
      folder: folderOf(f),
      module: m,
    })).sort((a, b) => a.folder.length - b.folder.length);
  const middlewareFiles = special("_middleware");
  const layoutFiles = special("_layout");
  const routes: CompiledRoute[] = [];
  const seen = new Map<string, string>();
  for (const [file, module] of entries) {
    if (isSpecialFile(file)) continue;
    const { pattern, segments } = routePattern(file);
    const previous = seen.get(pattern);
    if (previous) throw new Error(`Routes ${previous} and ${file} both match ${pattern}`);
    seen.set(pattern, file);
    const folder = folderOf(file);
    const middlewares = middlewareFiles.filter((m) => isAncestorFolder(m.folder, folder))
      .flatMap((m) => middlewaresOf(m.module));
    let layouts = layoutFiles.filter((l) => isAncestorFolder(l.folder, folder));
    // A route opting out gets no layout; a layout opting out cuts off those above it.
    if (module.config?.skipInheritedLayouts) layouts = [];
    const cut = layouts.findLastIndex((l) => l.module.config?.skipInheritedLayouts);
    if (cut > 0) layouts = layouts.slice(cut);
    routes.push({
      file,
      pattern,
      segments,
      matcher: new URLPattern({ pathname: pattern }),
      module,
      middlewares,
      layouts: layouts.map((l) => l.module),
    });
  }
  routes.sort(compareRoutes);
  const one = (name: string) => special(name).find((s) => s.folder.length === 0)?.module;
  return {
    routes,
    app: one("_app"),
    notFound: one("_404"),
    error: one("_500"),
    rootMiddlewares: middlewareFiles.filter((m) => m.folder.length === 0).flatMap((m) =>
      middlewaresOf(m.module)
    ),
  };
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
  for (const route of table.routes) {
    // URLPattern's exec is the costly part of a request: skip routes whose literal
    // segments or segment count cannot match (a necessary condition only, so the
    // pattern still decides).
    if (!mayMatch(route.segments, parts)) continue;
    const m = route.matcher.exec({ pathname });
    if (!m) continue;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.pathname.groups)) {
      if (v === undefined) {
        params[k] = "";
        continue;
      }
      try {
        params[k] = decodeURIComponent(v);
      } catch {
        params[k] = v; // a malformed escape stays as written rather than failing the request
      }
    }
    return { route, params };
  }
  return null;
}

/** Literal text URLPattern compares as written (no escaping differences). */
const PLAIN = /^[A-Za-z0-9._~-]+$/;

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

/**
 * Server half of islands: recognise island components while a page renders, wrap their
 * HTML in a `<parley-island>` marker element, and record their props for the browser.
 *
 * The marker is an element (styled `display: contents`) rather than a pair of comments:
 * the browser then hydrates into it with Preact's public `hydrate(vnode, element)`, with
 * no reliance on Preact internals.
 *
 * @module
 */
// The class only: `@preact/signals` would install its render hooks on the server.
import { Signal } from "@preact/signals-core";
import { type ComponentType, h, isValidElement, options, type VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { insideCachedPart, renderedParts } from "./html_cache.ts";
import type { IslandModule, IslandSource } from "./types.ts";

/** Tag a serialized value carries when it is not plain JSON data. */
export const TAG = "\u0001parley";

/** One island instance on a rendered page. */
export interface IslandInstance {
  name: string;
  /** The encoded props as JSON (what the browser revives). */
  json: string;
}

/** Per-render collector (rendering is synchronous, so one slot is enough). */
export interface IslandCollector {
  instances: IslandInstance[];
  /** Names of the islands used, for the boot script's imports. */
  used: Set<string>;
  /** >0 while rendering inside an island: nested islands are plain components there. */
  depth: number;
}

// deno-lint-ignore no-explicit-any
const registry = new Map<ComponentType<any>, string>();
let current: IslandCollector | null = null;

/**
 * The name an island file goes by: in the page's markers, the boot script and its bundle.
 *
 * @example
 * ```ts
 * import { islandName } from "./islands.ts";
 *
 * islandName("./islands/VoteButtons.tsx"); // "VoteButtons"
 * ```
 */
export function islandName(file: string): string {
  return file.replace(/^.*\//, "").replace(/\.(tsx|ts|jsx|js)$/, "").replace(/[^A-Za-z0-9_]/g, "_");
}

/**
 * Register the manifest's islands given as modules under their {@link islandName} (done
 * once at start-up); islands given as loaders wait for {@link islandLoader}.
 */
export function registerIslands(islands: Record<string, IslandSource>): void {
  for (const [file, source] of Object.entries(islands)) {
    if (typeof source !== "function") registerIsland(file, source);
  }
}

function registerIsland(file: string, mod: IslandModule): void {
  registry.set(mod.default, islandName(file));
}

/**
 * What loads and registers the islands that route files reach, before a page of theirs
 * renders: `routeIslands` maps each route file to its island files (the build's walk of
 * its imports). The returned function resolves once every island of `files` is registered
 * and returns undefined when all of them already are, so a warm request does not await.
 * Island modules a route imports are loaded with it anyway; the loader only finds them.
 *
 * @example
 * ```ts
 * import { islandLoader } from "./islands.ts";
 *
 * const load = islandLoader(
 *   { "./islands/Vote.tsx": () => import("../../islands/VoteButtons.tsx") },
 *   { "./routes/index.tsx": ["./islands/Vote.tsx"] },
 * );
 * await load(["./routes/_app.tsx", "./routes/index.tsx"]);
 * ```
 */
export function islandLoader(
  islands: Record<string, IslandSource>,
  routeIslands: Record<string, string[]>,
): (files: readonly string[]) => Promise<void> | undefined {
  const loading = new Map<string, Promise<void>>();
  const done = new Set<string>();
  const loadIsland = (file: string): Promise<void> | undefined => {
    if (done.has(file)) return undefined;
    const source = islands[file];
    if (typeof source !== "function") {
      done.add(file);
      return undefined;
    }
    let p = loading.get(file);
    if (!p) {
      p = source().then((mod) => {
        registerIsland(file, mod);
        done.add(file);
      }).finally(() => loading.delete(file));
      loading.set(file, p);
    }
    return p;
  };
  return (files) => {
    const pending: Promise<void>[] = [];
    for (const f of files) {
      for (const island of routeIslands[f] ?? []) {
        const p = loadIsland(island);
        if (p) pending.push(p);
      }
    }
    return pending.length > 0 ? Promise.all(pending).then(() => {}) : undefined;
  };
}

/**
 * Run `render` with a fresh collector; returns its result and the islands it produced.
 *
 * @example
 * ```tsx
 * import type { ComponentType } from "preact";
 * import { renderToString } from "preact-render-to-string";
 * import { collectIslands } from "./islands.ts";
 *
 * declare const Page: ComponentType;
 * const { result: html, islands } = collectIslands(() => renderToString(<Page />));
 * ```
 */
export function collectIslands<T>(render: () => T): { result: T; islands: IslandCollector } {
  const previous = current;
  const collector: IslandCollector = { instances: [], used: new Set(), depth: 0 };
  current = collector;
  try {
    return { result: render(), islands: collector };
  } finally {
    current = previous;
  }
}

/** Thrown when an island prop cannot travel to the browser. */
export class IslandPropError extends Error {
  constructor(island: string, path: string, what: string) {
    super(
      `Island "${island}" prop "${path}" is ${what}; island props must be plain data, Dates or signals`,
    );
    this.name = "IslandPropError";
  }
}

/**
 * Encode island props as JSON-safe data: plain values stay as they are, Dates and signals
 * become tagged objects the browser revives; functions and JSX are refused with an
 * error naming the island and the prop.
 */
export function encodeProps(island: string, value: unknown, path = ""): unknown {
  const here = (k: string | number) => (path ? `${path}.${k}` : String(k));
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (value === undefined) return undefined;
  if (typeof value === "function") throw new IslandPropError(island, path, "a function");
  if (typeof value === "bigint" || typeof value === "symbol") {
    throw new IslandPropError(island, path, `a ${typeof value}`);
  }
  if (value instanceof Date) return { [TAG]: "date", v: value.toISOString() };
  if (value instanceof Signal) {
    return { [TAG]: "signal", v: encodeProps(island, value.peek(), path) };
  }
  if (isValidElement(value)) throw new IslandPropError(island, path, "JSX");
  if (Array.isArray(value)) return value.map((v, i) => encodeProps(island, v, here(i)) ?? null);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    throw new IslandPropError(island, path, `an instance of ${proto?.constructor?.name ?? "?"}`);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k === TAG) throw new IslandPropError(island, here(k), "a reserved key");
    const enc = encodeProps(island, v, here(k));
    if (enc !== undefined) out[k] = enc;
  }
  return out;
}

/**
 * JSON made safe for a `<script type="application/json">`: `<`, U+2028 and U+2029 are
 * escaped so no prop can close the script element or break the parser.
 */
function scriptSafe(json: string): string {
  return json.replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/**
 * The page's island JSON (`[{name, props}, …]`, script-safe) from the instances' own
 * JSON, so props are serialized once per island.
 */
export function islandsJson(instances: IslandInstance[]): string {
  let out = "[";
  for (let i = 0; i < instances.length; i++) {
    if (i > 0) out += ",";
    out += `{"name":${JSON.stringify(instances[i].name)},"props":${instances[i].json}}`;
  }
  return scriptSafe(out + "]");
}

/**
 * The props as the JSON the browser revives. Flat props of plain values (most islands)
 * are stringified as they are — `JSON.stringify` drops `undefined` and writes non-finite
 * numbers as null, as {@link encodeProps} does — anything else goes through
 * {@link encodeProps}.
 */
function propsJson(name: string, props: Record<string, unknown>): string {
  for (const k in props) {
    const v = props[k];
    if (v !== null && typeof v === "object") return JSON.stringify(encodeProps(name, props));
    if (typeof v === "function" || typeof v === "bigint" || typeof v === "symbol") {
      return JSON.stringify(encodeProps(name, props));
    }
    if (k === TAG) return JSON.stringify(encodeProps(name, props));
  }
  return JSON.stringify(props);
}

interface MarkerProps {
  name: string;
  // deno-lint-ignore no-explicit-any
  component: ComponentType<any>;
  props: Record<string, unknown>;
}

/** Create the island's own vnode without the hook wrapping it again. */
// deno-lint-ignore no-explicit-any
function plain(component: ComponentType<any>, props: Record<string, unknown>): VNode {
  bypass = true;
  try {
    return h(component, props);
  } finally {
    bypass = false;
  }
}

let bypass = false;

/**
 * An island at the top level: its props are recorded for the browser and its server HTML
 * comes from {@link renderedParts} by name and props. The island's server render is a
 * function of its props alone — hydration needs exactly that, since the browser renders
 * the same props into the same markup — so one render serves every page that shows the
 * island with equal props (the same vote buttons on every signed-out view, a reply form
 * per answer). It renders as its own root, as the browser hydrates it.
 */
function IslandMarker(marker: MarkerProps): VNode {
  const { name, component, props } = marker;
  if (!current || current.depth > 0) return plain(component, props);
  if (insideCachedPart()) {
    throw new Error(`Island "${name}" inside a cached part: its props would not reach the page`);
  }
  const { children: _children, ...rest } = props;
  if (_children !== undefined) {
    throw new IslandPropError(name, "children", "JSX");
  }
  const json = propsJson(name, rest);
  const index = current.instances.push({ name, json }) - 1;
  current.used.add(name);
  const key = `island\u0000${name}\u0000${json}`;
  let html = renderedParts.get(key);
  if (html === undefined) {
    // Islands inside this one render as plain components (the browser hydrates only the
    // outer one).
    current.depth++;
    try {
      html = renderedParts.set(key, renderToString(plain(component, rest)));
    } finally {
      current.depth--;
    }
  }
  return h("parley-island", {
    "data-island": name,
    "data-i": String(index),
    dangerouslySetInnerHTML: { __html: html },
  } as Record<string, unknown>) as VNode;
}

let installed = false;

/** Install the render hooks once per process (server only). */
export function installIslandHooks(): void {
  if (installed) return;
  installed = true;
  const prevVnode = options.vnode;
  options.vnode = (vnode) => {
    // deno-lint-ignore no-explicit-any
    const name = bypass ? undefined : registry.get(vnode.type as ComponentType<any>);
    if (name) {
      const original = vnode.type;
      const props = vnode.props as Record<string, unknown>;
      // deno-lint-ignore no-explicit-any
      (vnode as any).type = IslandMarker;
      vnode.props = { name, component: original, props } as unknown as typeof vnode.props;
    }
    prevVnode?.(vnode);
  };
}

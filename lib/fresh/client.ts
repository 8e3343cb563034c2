/**
 * Browser half of islands: read the props the server recorded, revive Dates and
 * signals, and hydrate each `<parley-island>` with its component.
 *
 * @module
 */
import { type ComponentType, h, hydrate } from "preact";
import { setBuildBase } from "./assets.ts";

const TAG = "\u0001parley";

type Reviver = (value: unknown) => unknown;

function revive(value: unknown, signal: Reviver | null): unknown {
  if (Array.isArray(value)) return value.map((v) => revive(v, signal));
  if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    if (obj[TAG] === "date") return new Date(obj.v as string);
    if (obj[TAG] === "signal") return signal ? signal(revive(obj.v, signal)) : obj.v;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) out[k] = revive(v, signal);
    return out;
  }
  return value;
}

function usesSignals(value: unknown): boolean {
  return JSON.stringify(value).includes('"\\u0001parley":"signal"');
}

/**
 * Longest stretch of hydration before the main thread is given back (under the 50 ms a
 * browser counts as a long task): a tap or a keypress meanwhile is handled within about
 * this long instead of after every island.
 */
export const HYDRATION_SLICE_MS = 30;

/** Let the browser handle input and paint: `scheduler.yield()` where there is one. */
function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The islands in the viewport first (what the person can touch), then the rest in order. */
function hydrationOrder(els: HTMLElement[]): HTMLElement[] {
  const height = globalThis.innerHeight || document.documentElement.clientHeight;
  const seen: HTMLElement[] = [];
  const later: HTMLElement[] = [];
  for (const el of els) {
    // `display: contents` gives the marker no box: its first child has one.
    const box = (el.firstElementChild ?? el).getBoundingClientRect();
    (box.bottom >= 0 && box.top <= height ? seen : later).push(el);
  }
  return [...seen, ...later];
}

/**
 * Hydrate every island on the page. Called by the boot script with the island
 * components this page uses. Islands in the viewport come first; the work is cut into
 * slices of at most {@link HYDRATION_SLICE_MS} with the main thread given back between
 * them — a 30-answer question page has ~160 islands, which in one pass was a 90–140 ms
 * task on a phone-speed CPU (Chromium at 4× CPU throttling). `data-hydrated` marks each
 * island as it hydrates, and the root's `data-islands="ready"` the end.
 *
 * @example
 * ```ts
 * import type { ComponentType } from "preact";
 * import { boot } from "./client.ts";
 *
 * declare const VoteButtons: ComponentType<{ questionId: string }>;
 * await boot({ VoteButtons });
 * ```
 */
// deno-lint-ignore no-explicit-any
export async function boot(components: Record<string, ComponentType<any>>): Promise<void> {
  const stateEl = document.getElementById("__parley_islands");
  const instances = JSON.parse(stateEl?.textContent ?? "[]") as {
    name: string;
    props: unknown;
  }[];
  // Signals are loaded only by pages whose islands take one.
  let signal: Reviver | null = null;
  if (usesSignals(instances)) {
    const mod = await import("@preact/signals");
    signal = (v) => mod.signal(v);
  }
  const els = [...document.querySelectorAll<HTMLElement>("parley-island[data-i]")];
  let sliceEnd = performance.now() + HYDRATION_SLICE_MS;
  for (const el of hydrationOrder(els)) {
    if (performance.now() >= sliceEnd) {
      await yieldToMain();
      sliceEnd = performance.now() + HYDRATION_SLICE_MS;
    }
    const instance = instances[Number(el.dataset.i)];
    const component = instance && components[instance.name];
    if (!component) continue;
    const props = revive(instance.props, signal) as Record<string, unknown>;
    hydrate(h(component, props), el);
    el.dataset.hydrated = "true";
  }
  document.documentElement.dataset.islands = "ready";
}

/**
 * The page's boot module (`boot.js` of the build): import the bundle of every island the
 * page's JSON names — `island_<name>.js` beside this module — and {@link boot} them. A
 * file rather than an inline script, so the CSP allows it as `'self'` with no nonce.
 *
 * @example
 * ```ts
 * import { start } from "./client.ts";
 *
 * await start(new URL("./", import.meta.url).href);
 * ```
 */
export async function start(base: string): Promise<void> {
  // Islands' asset URLs (icons' sprite) are the server's: the same build folder.
  setBuildBase(base);
  const stateEl = document.getElementById("__parley_islands");
  const instances = JSON.parse(stateEl?.textContent ?? "[]") as { name: string }[];
  const names = [...new Set(instances.map((i) => i.name))].filter((n) => /^\w+$/.test(n));
  // deno-lint-ignore no-explicit-any
  const components: Record<string, ComponentType<any>> = {};
  await Promise.all(names.map(async (name) => {
    const url = new URL(`island_${name}.js`, base).href;
    components[name] = (await import(url)).default;
  }));
  await boot(components);
}

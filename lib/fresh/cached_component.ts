/**
 * A component rendered as a cached part ({@link cachedElement}) under a key derived from
 * its props, so a page never spells out a part's inputs a second time: the key is the
 * part's name and every prop, and a new prop enters it by itself.
 *
 * @module
 */
import { type FunctionComponent, h, type VNode } from "preact";
import { cachedElement } from "./html_cache.ts";

/** Where a cached component renders and how its props become its key. */
export interface CachedPart<P> {
  /** Names the part in its key (two components with the same props never share HTML). */
  name: string;
  /** The element around the part's HTML, and its attributes. */
  tag: string;
  attrs?: Record<string, unknown>;
  /**
   * Props that change more often than the markup they yield — the clock, `now` — with
   * what they yield (the age texts shown); the key holds that instead of the prop.
   */
  derive?: { [K in keyof P]?: (props: P) => unknown };
}

/**
 * The cache key of `props` for `part`: its name and each prop (sorted by name), a prop in
 * `part.derive` replaced by what it yields.
 *
 * @example
 * ```ts
 * import { partKey } from "./cached_component.ts";
 *
 * const key = partKey({ name: "note", tag: "p", derive: { now: ({ now }) => now > 0 } }, {
 *   text: "hi",
 *   now: 1_700_000_000_000,
 * });
 * key; // '["note",[["now",true],["text","hi"]]]'
 * ```
 */
export function partKey<P extends object>(part: CachedPart<P>, props: P): string {
  const entries = (Object.keys(props) as (keyof P & string)[]).sort().map((name) => {
    const derived = part.derive?.[name];
    return [name, derived ? derived(props) : props[name]];
  });
  return JSON.stringify([part.name, entries]);
}

/**
 * `<Component {...props} />` inside `<part.tag {...part.attrs}>`, rendered once per
 * {@link partKey} and reused while the key is the same. As with {@link cachedElement}, the
 * component may not contain islands, and must be a function of its props.
 *
 * @example
 * ```tsx
 * import { cachedComponent } from "./cached_component.ts";
 *
 * function Title({ title }: { title: string }) {
 *   return <strong>{title}</strong>;
 * }
 * const li = cachedComponent({ name: "title", tag: "li" }, Title, { title: "Hello" });
 * ```
 */
export function cachedComponent<P extends object>(
  part: CachedPart<P>,
  Component: (props: P) => VNode | null,
  props: P,
): VNode {
  const render = () => h(Component as FunctionComponent<P>, props) as VNode;
  return cachedElement(part.tag, part.attrs ?? {}, partKey(part, props), render);
}

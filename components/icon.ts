/**
 * An icon as a Preact component: an `<svg>` the size and classes of lucide-preact's
 * (24×24, `lucide lucide-<name>` before the caller's classes, `aria-hidden` unless the
 * caller gives an accessible name) whose one child is a `<use>` of the icon's symbol in
 * the build's sprite (`static/icons.svg`, generated with `components/icons.gen.ts` by
 * `deno task build` from the package: lib/fresh/icons_gen.ts). The shapes travel once, in
 * an immutable file the browser caches, not in every icon of every page.
 *
 * The symbol strokes in `currentColor`; `fill` is set here (`none`) and inherited through
 * the `<use>`, so the stylesheet can still fill an icon (`.icon-filled`). The server and the
 * islands render the same URL: the islands' boot sets the build folder (lib/fresh/client.ts).
 *
 * @module
 */
import { h, type JSX, type VNode } from "preact";
import { asset } from "../lib/fresh/assets.ts";

/** What an icon takes: any SVG attribute, `class` included. */
export type IconProps = JSX.SVGAttributes<SVGSVGElement> & { class?: string };

/** The sprite's file under `static/` (lib/fresh/icons_gen.ts writes it). */
const SPRITE = "icons.svg";

/** True when the caller gives the icon an accessible name or role (then it is not hidden). */
function hasA11yProp(props: Record<string, unknown>): boolean {
  return Object.keys(props).some((k) => k.startsWith("aria-") || k === "role" || k === "title");
}

/**
 * The component of icon `name` (kebab-case, as lucide names it: the id of its symbol).
 *
 * @example
 * ```ts
 * import { renderToString } from "preact-render-to-string";
 * import { h } from "preact";
 * import { icon } from "./icon.ts";
 *
 * const Check = icon("check");
 * renderToString(h(Check, { class: "icon" }));
 * // <svg class="lucide lucide-check icon" width="24" height="24" viewBox="0 0 24 24"
 * //   fill="none" aria-hidden="true"><use href="/_parley/…/s/icons.svg#check"></use></svg>
 * ```
 */
export function icon(name: string): (props: IconProps) => VNode {
  const Icon = ({ class: extra, ...rest }: IconProps): VNode =>
    h("svg", {
      class: extra ? `lucide lucide-${name} ${extra}` : `lucide lucide-${name}`,
      width: 24,
      height: 24,
      viewBox: "0 0 24 24",
      fill: "none",
      ...(hasA11yProp(rest) ? {} : { "aria-hidden": "true" }),
      ...rest,
    } as Record<string, unknown>, h("use", { href: `${asset(SPRITE)}#${name}` }));
  return Icon;
}

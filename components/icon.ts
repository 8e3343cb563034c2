/**
 * An icon as a Preact component, rendering the same `<svg>` as the lucide-preact package
 * (24×24, stroked in `currentColor`, classes `lucide lucide-<name>` before the caller's,
 * `aria-hidden` unless the caller gives an accessible name), from the icon's shapes alone.
 * The shapes come from `components/icons.gen.ts`, which `deno task build` writes from the
 * package (lib/fresh/icons_gen.ts): the package's own index imports all of its 3,700 icon
 * modules, which cost a fresh instance more than the rest of its start-up together.
 *
 * @module
 */
import { h, type JSX, type VNode } from "preact";

/** An icon's shapes: `[tag, attributes]` per element (lucide icons are flat). */
export type IconNode = [string, Record<string, string>][];

/** What an icon takes: any SVG attribute, `class` included. */
export type IconProps = JSX.SVGAttributes<SVGSVGElement> & { class?: string };

/** True when the caller gives the icon an accessible name or role (then it is not hidden). */
function hasA11yProp(props: Record<string, unknown>): boolean {
  return Object.keys(props).some((k) => k.startsWith("aria-") || k === "role" || k === "title");
}

/**
 * The component of icon `name` (kebab-case, as lucide names it) drawn by `node`.
 *
 * @example
 * ```ts
 * import { renderToString } from "preact-render-to-string";
 * import { h } from "preact";
 * import { icon } from "./icon.ts";
 *
 * const Check = icon("check", [["path", { d: "M20 6 9 17l-5-5" }]]);
 * renderToString(h(Check, { class: "icon", "aria-hidden": "true" }));
 * ```
 */
export function icon(name: string, node: IconNode): (props: IconProps) => VNode {
  const children = () => node.map(([tag, attrs]) => h(tag, attrs));
  const Icon = ({ class: extra, ...rest }: IconProps): VNode =>
    h("svg", {
      xmlns: "http://www.w3.org/2000/svg",
      width: 24,
      height: 24,
      viewBox: "0 0 24 24",
      fill: "none",
      stroke: "currentColor",
      "stroke-width": 2,
      "stroke-linecap": "round",
      "stroke-linejoin": "round",
      class: extra ? `lucide lucide-${name} ${extra}` : `lucide lucide-${name}`,
      ...(hasA11yProp(rest) ? {} : { "aria-hidden": "true" }),
      ...rest,
    } as Record<string, unknown>, children());
  return Icon;
}

/** The generated icons render exactly what lucide-preact renders for the same props. */
import assert from "node:assert/strict";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import * as lucide from "lucide-preact";
import * as icons from "./icons.gen.ts";
import { ICONS } from "../lib/fresh/icons_gen.ts";

Deno.test("every generated icon renders as lucide-preact's, with and without props", () => {
  type Props = Record<string, string>;
  const propSets: Props[] = [
    {},
    { class: "icon", "aria-hidden": "true" },
    { class: "icon icon-filled", "aria-hidden": "true" },
    { "aria-label": "Starred", role: "img" },
  ];
  assert.deepEqual(Object.keys(icons).sort(), [...ICONS].sort());
  for (const name of ICONS) {
    const ours = icons[name] as unknown as (p: Props) => null;
    const theirs = (lucide as unknown as Record<string, (p: Props) => null>)[name];
    for (const props of propSets) {
      assert.equal(renderToString(h(ours, props)), renderToString(h(theirs, props)), name);
    }
  }
});

/**
 * Icons are `<use>`s of the build's sprite: each generated icon renders lucide's `<svg>`
 * sizing, classes and aria behaviour around one `<use>` of its symbol, and the committed
 * sprite holds, per icon, exactly the shapes and stroke that lucide-preact draws.
 */
import assert from "node:assert/strict";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import * as icons from "./icons.gen.ts";
import { asset, setBuildId } from "../lib/fresh/assets.ts";
import { ICONS, lucideIcons, SPRITE_PATH } from "../lib/fresh/icons_gen.ts";

const ROOT = new URL("..", import.meta.url).pathname;

/** `<tag a="1">` attributes as a record. */
function attributes(tag: string): Record<string, string> {
  return Object.fromEntries(
    [...tag.matchAll(/([a-zA-Z0-9:-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
  );
}

Deno.test("every icon renders an <svg> of lucide's size and classes around a <use> of its symbol", async () => {
  setBuildId("0123456789ab");
  const sprite = asset("icons.svg");
  assert.equal(sprite, "/_parley/0123456789ab/s/icons.svg");
  assert.deepEqual(Object.keys(icons).sort(), [...ICONS].sort());
  for (const { exportName, name, root } of await lucideIcons()) {
    const Icon = icons[exportName as keyof typeof icons];
    const html = (props: Record<string, string>) => renderToString(h(Icon, props));
    assert.equal(
      html({}),
      `<svg class="lucide lucide-${name}" width="24" height="24" viewBox="0 0 24 24" ` +
        `fill="none" aria-hidden="true"><use href="${sprite}#${name}"></use></svg>`,
    );
    // The caller's classes after lucide's; a caller's aria-hidden is kept as given.
    const decorative = html({ class: "icon icon-filled", "aria-hidden": "true" });
    const svg = attributes(/^<svg[^>]*>/.exec(decorative)![0]);
    assert.equal(svg.class, `lucide lucide-${name} icon icon-filled`);
    assert.equal(svg["aria-hidden"], "true");
    // lucide's sizing and fill on the outer <svg> (the stroke is the symbol's).
    for (const a of ["width", "height", "viewBox", "fill"]) assert.equal(svg[a], root[a], a);
    // An icon given an accessible name is not hidden.
    const named = html({ "aria-label": "Starred", role: "img" });
    assert.doesNotMatch(named, /aria-hidden/);
    assert.match(named, /^<svg [^>]*aria-label="Starred" role="img"><use href=/);
  }
  setBuildId("dev");
});

Deno.test("the sprite holds one symbol per icon with lucide-preact's shapes, viewBox and stroke", async () => {
  const text = await Deno.readTextFile(`${ROOT}${SPRITE_PATH}`);
  const symbols = new Map<string, { attrs: Record<string, string>; body: string }>();
  for (const m of text.matchAll(/<symbol([^>]*)>(.*?)<\/symbol>/gs)) {
    const attrs = attributes(m[1]);
    symbols.set(attrs.id, { attrs, body: m[2] });
  }
  const drawn = await lucideIcons();
  assert.deepEqual([...symbols.keys()], drawn.map((i) => i.name));
  for (const { name, root, shapes } of drawn) {
    const { attrs, body } = symbols.get(name)!;
    assert.equal(attrs.viewBox, "0 0 24 24");
    for (const a of ["viewBox", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin"]) {
      assert.equal(attrs[a], root[a], `${name} ${a}`);
    }
    // No fill on the symbol: the <use> inherits the <svg>'s (none, or .icon-filled's).
    assert.equal(attrs.fill, undefined, name);
    const ours = [...body.matchAll(/<([a-z]+)([^>]*?)\/>/g)].map((m) => [m[1], attributes(m[2])]);
    assert.deepEqual(ours, shapes, name);
  }
});

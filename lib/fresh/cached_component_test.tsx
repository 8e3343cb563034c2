/** cachedComponent(): a part's key comes from its props, the clock through what it shows. */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { cachedComponent, type CachedPart, partKey } from "./cached_component.ts";
import { renderedParts } from "./html_cache.ts";

interface NoteProps {
  text: string;
  author: { name: string };
  at: number;
  now: number;
}

const minutesAgo = ({ at, now }: NoteProps) => `${Math.floor((now - at) / 60_000)} min`;
const NOTE: CachedPart<NoteProps> = {
  name: "note",
  tag: "p",
  attrs: { class: "note" },
  derive: { now: minutesAgo },
};

Deno.test("partKey() holds every prop, sorted by name, and what a derived prop yields", () => {
  const props = { text: "hi", author: { name: "Ada" }, at: 0, now: 90_000 };
  assert.equal(
    partKey(NOTE, props),
    '["note",[["at",0],["author",{"name":"Ada"}],["now","1 min"],["text","hi"]]]',
  );
  const reordered = { now: 90_000, at: 0, author: { name: "Ada" }, text: "hi" };
  assert.equal(partKey(NOTE, reordered), partKey(NOTE, props));
  assert.notEqual(partKey({ ...NOTE, name: "other" }, props), partKey(NOTE, props));
});

Deno.test("cachedComponent() renders again when any prop changes, not when the clock moves within what it shows", () => {
  renderedParts.clear();
  let renders = 0;
  const Note = (p: NoteProps) => {
    renders++;
    return (
      <>
        {p.text} by {p.author.name}, {minutesAgo(p)}
      </>
    );
  };
  const html = (props: NoteProps) => renderToString(cachedComponent(NOTE, Note, props));
  const base = { text: "hi", author: { name: "Ada" }, at: 0, now: 60_000 };
  assert.equal(html(base), '<p class="note">hi by Ada, 1 min</p>');
  assert.equal(html({ ...base, now: 119_000 }), '<p class="note">hi by Ada, 1 min</p>');
  assert.equal(renders, 1);
  assert.equal(html({ ...base, now: 120_000 }), '<p class="note">hi by Ada, 2 min</p>');
  assert.equal(
    html({ ...base, author: { name: "Grace" } }),
    '<p class="note">hi by Grace, 1 min</p>',
  );
  assert.equal(html({ ...base, text: "bye" }), '<p class="note">bye by Ada, 1 min</p>');
  assert.equal(renders, 4);
});

/**
 * The icon sprite: pages reference every icon by `<use>` of one URL under the build's
 * immutable folder, and that URL serves the committed `static/icons.svg` as SVG, cached for
 * a year, pre-compressed, with a symbol for every icon of ICONS.
 */
import assert from "node:assert/strict";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { readBuildInfo } from "@/lib/fresh/assets.ts";
import { ICONS, lucideIcons, SPRITE_PATH } from "@/lib/fresh/icons_gen.ts";
import { createTestApp, ROOT } from "../helpers/app.ts";
import { answer, ask, getAs, member } from "../helpers/community.ts";

Deno.test("pages draw icons as <use> of the build's sprite, which is served immutable with every symbol", async () => {
  const t = await createTestApp();
  try {
    const build = await readBuildInfo(`${ROOT}/.build`);
    const asker = await member(t, "Asker");
    const viewer = await member(t, "Viewer");
    const qid = await ask(t, asker, { title: "Where do the icons' shapes come from?" });
    await answer(t, asker, qid, "From one sprite, drawn once.");

    const spriteUrl = `/_parley/${build.buildId}/s/icons.svg`;
    const referenced = new Set<string>();
    for (
      const [who, path] of [[null, `/questions/${qid}`], [viewer, `/questions/${qid}`]] as const
    ) {
      const html = await (await getAs(t, who, path)).text();
      const icons = html.match(/<svg class="lucide [^"]*"[^>]*>.*?<\/svg>/g) ?? [];
      assert.ok(icons.length >= 5, `${path} has icons`);
      for (const svg of icons) {
        // No shapes inline: one <use> of the sprite's symbol.
        const m = /^<svg [^>]*><use href="([^"#]+)#([a-z0-9-]+)"><\/use><\/svg>$/.exec(svg);
        assert.ok(m, svg);
        assert.equal(m[1], spriteUrl);
        referenced.add(m[2]);
      }
    }

    const committed = await Deno.readTextFile(`${ROOT}/${SPRITE_PATH}`);
    const plain = await t.request(spriteUrl);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get("content-type"), "image/svg+xml");
    assert.equal(plain.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.match(plain.headers.get("vary") ?? "", /Accept-Encoding/i);
    const sprite = await plain.text();
    assert.equal(sprite, committed, "the build serves the committed sprite");

    for (const [enc, decode] of [["br", brotliDecompressSync], ["gzip", gunzipSync]] as const) {
      const res = await t.request(spriteUrl, { headers: { "accept-encoding": enc } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-encoding"), enc);
      assert.equal(res.headers.get("content-type"), "image/svg+xml");
      assert.match(res.headers.get("cache-control") ?? "", /immutable/);
      const bytes = new Uint8Array(await res.arrayBuffer());
      assert.ok(bytes.length < sprite.length / 2, `${enc} is smaller`);
      assert.equal(new TextDecoder().decode(decode(bytes)), sprite);
    }

    const ids = [...sprite.matchAll(/<symbol id="([a-z0-9-]+)" viewBox="0 0 24 24"/g)].map((m) =>
      m[1]
    );
    const names = (await lucideIcons()).map((i) => i.name);
    assert.equal(names.length, ICONS.length);
    assert.deepEqual(ids, names, "one symbol per icon of ICONS");
    for (const id of referenced) assert.ok(ids.includes(id), `the sprite has #${id}`);

    // Another build's folder does not serve this one's sprite.
    assert.equal((await t.request("/_parley/000000000000/s/icons.svg")).status, 404);
  } finally {
    await t.close();
  }
});

/**
 * Icons come from one SVG set (lucide), never from symbol characters that draw as empty
 * boxes without an emoji font: the profile's activity (upvotes, votes, favorites), its
 * badges, the feed and the debate list show no ▲ ▼ ★ ✓ ○ ← → × in their text, and each icon
 * stands beside words that say what it means.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";
import { answer, ask, getAs, json, member, postAs, vote } from "../helpers/community.ts";
import { seedDebate } from "../helpers/seed.ts";

/** Symbol and emoji characters that need a font the system may lack. */
const GLYPHS =
  /[\u2190-\u21FF\u2300-\u23FF\u25A0-\u25FF\u2600-\u27BF\u2B00-\u2BFF\u00D7\u{1F000}-\u{1FAFF}]/u;

/** The text a person reads: no scripts, no tags or their attributes. */
function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<style[\s\S]*?<\/style>/g, "")
    .replace(/<[^>]*>/g, " ")
    .replace(/&[a-z]+;|&#\d+;/g, " ")
    .replace(/\s+/g, " ");
}

Deno.test("profiles, the feed and debates draw icons as SVG beside words, never as symbol characters", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada Lovelace");
    const bob = await member(t, "Bob Stone");
    const qid = await ask(t, ada, { title: "Which tree grows fastest in clay?", tags: ["trees"] });
    await answer(t, ada, qid, "Willows like wet clay.");
    await vote(t, bob, "question", qid, "up");
    const fav = await postAs(t, bob, "/api/favorites", { targetId: qid, targetType: "question" });
    assert.equal(fav.status, 200, await fav.clone().text());
    await json(fav);
    await seedDebate(t, ada.id, "Tabs or spaces?");

    const pages: [typeof ada | null, string][] = [
      [ada, "/profile?tab=questions"],
      [ada, "/profile?tab=answers"],
      [ada, "/profile?tab=debates"],
      [bob, "/profile?tab=likes"],
      [bob, "/profile?tab=favorites"],
      [null, `/u/${ada.id}`],
      [null, "/"],
      [null, "/debates"],
      [null, `/questions/${qid}`],
    ];
    for (const [who, path] of pages) {
      const html = await (await getAs(t, who, path)).text();
      const text = visibleText(html);
      assert.doesNotMatch(text, GLYPHS, `${path}: ${text.match(GLYPHS)?.[0]}`);
      // Every icon is decorative: hidden from screen readers, with words beside it.
      for (const svg of html.match(/<svg[^>]*class="[^"]*\bicon\b[^"]*"[^>]*>/g) ?? []) {
        assert.match(svg, /aria-hidden="true"/, `${path}: ${svg}`);
      }
      if (path === "/profile?tab=questions") {
        assert.match(text, /1 upvote\b/, "the count says what it counts");
        assert.match(html, /lucide-arrow-big-up/);
        // Badges: an icon for earned and not yet earned, said in words for screen readers.
        assert.match(html, /lucide-badge-check/);
        assert.match(html, /lucide-circle/);
        assert.match(text, /\(earned\)/);
        assert.match(text, /\(not yet earned\)/);
      }
      if (path === "/profile?tab=likes") {
        assert.match(text, /Upvoted/);
        assert.match(html, /lucide-arrow-big-up/);
      }
      if (path === "/profile?tab=favorites") {
        assert.match(text, /Favorited/);
        assert.match(html, /lucide-star/);
      }
    }
  } finally {
    await t.close();
  }
});

/** The home page's discovery sidebar: hot questions, a tag cloud, a random unanswered one. */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";
import { answer, member, postAs } from "../helpers/community.ts";
import { DISCOVERY_HOT } from "@/lib/community/questions/discovery.ts";

Deno.test("home page has the discovery sidebar: top hot questions, most used tags first, an unanswered question", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await postAs(t, ada, "/api/questions", {
        title: `Discovery question number ${i}?`,
        tags: i < 4 ? ["Deno KV", "rare"].slice(0, i === 0 ? 2 : 1) : ["hono"],
        panel: false,
      });
      assert.equal(res.status, 201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    // All but the first are answered: the random pick can only be the first.
    for (const id of ids.slice(1)) await answer(t, bob, id, "An answer, so it is answered.");

    const html = await (await t.request("/")).text();
    const aside = html.slice(html.indexOf('<aside class="discovery"'), html.indexOf("</aside>"));
    assert.ok(aside.length > 0, "sidebar rendered");
    assert.match(aside, /Hot right now/);
    assert.match(aside, /Popular tags/);
    assert.match(aside, /Answer something/);
    const hot = [...aside.matchAll(/<li><a href="\/questions\/([^"]+)" dir="auto">/g)].map((m) =>
      m[1]
    );
    assert.equal(hot.length, DISCOVERY_HOT);
    // Answered questions are hotter (messages count as heat); the first is the coldest.
    assert.ok(!hot.includes(ids[0]), "the unanswered one is not among the 5 hottest");
    const tags = [...aside.matchAll(/href="\/\?tag=([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(tags, ["deno-kv", "hono", "rare"]);
    assert.ok(
      aside.includes(`href="/questions/${ids[0]}" data-testid="random-unanswered" dir="auto"`),
    );
  } finally {
    await t.close();
  }
});

Deno.test("the unanswered suggestion stays the same while the sidebar's snapshot is reused, and is one of the unanswered", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await postAs(t, ada, "/api/questions", {
        title: `Unanswered question number ${i} for the suggestion`,
        tags: ["suggest"],
        panel: false,
      });
      assert.equal(res.status, 201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    // Signed in: past the page cache, so each load renders the page again.
    const picks = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const html = await (await t.request("/", { headers: { cookie: ada.cookie } })).text();
      const m = html.match(/href="\/questions\/([^"]+)" data-testid="random-unanswered"/);
      assert.ok(m, "a suggestion is shown");
      picks.add(m[1]);
    }
    assert.equal(picks.size, 1, "the same suggestion on every render of one snapshot");
    assert.ok(ids.includes([...picks][0]));
  } finally {
    await t.close();
  }
});

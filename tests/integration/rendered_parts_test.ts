/**
 * Parts of pages rendered once and reused by key (lib/fresh/html_cache.ts): what they show
 * still follows the data — a vote on the feed, an edit on the question page — and a
 * viewer's own state never leaks into another viewer's page.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";
import { answer, ask, getAs, member, vote } from "../helpers/community.ts";

function feedItem(html: string, title: string): string {
  const at = html.indexOf(title);
  assert.ok(at > 0, `"${title}" is on the page`);
  return html.slice(html.lastIndexOf('<li class="card question-item">', at), at);
}

Deno.test("a feed item's reused markup follows a vote on its question", async () => {
  const t = await createTestApp();
  try {
    const asker = await member(t, "Asker");
    const voter = await member(t, "Voter");
    const id = await ask(t, asker, { title: "Reused feed item question" });
    const before = await (await getAs(t, voter, "/")).text();
    assert.match(feedItem(before, "Reused feed item question"), /<strong>0<\/strong> votes/);
    await vote(t, voter, "question", id);
    const after = await (await getAs(t, voter, "/")).text();
    assert.match(feedItem(after, "Reused feed item question"), /<strong>1<\/strong> vote</);
  } finally {
    await t.close();
  }
});

Deno.test("an edited answer shows its new text; vote state stays each viewer's own", async () => {
  const t = await createTestApp();
  try {
    const asker = await member(t, "Asker");
    const author = await member(t, "Author");
    const voter = await member(t, "Voter");
    const id = await ask(t, asker, { title: "Edits through reused parts" });
    const m = await answer(t, author, id, "First **version** of the answer");
    const page = `/questions/${id}`;
    for (const who of [asker, voter, null]) {
      assert.match(await (await getAs(t, who, page)).text(), /First <strong>version<\/strong>/);
    }
    const edit = await t.request(`/api/messages/${m}`, {
      method: "PATCH",
      headers: {
        cookie: author.cookie,
        origin: t.services.config.appOrigin,
        "content-type": "application/json",
      },
      body: JSON.stringify({ content: "Second *version* of the answer" }),
    });
    assert.equal(edit.status, 200, await edit.text());
    for (const who of [asker, voter, null]) {
      const html = await (await getAs(t, who, page)).text();
      assert.match(html, /Second <em>version<\/em>/);
      assert.doesNotMatch(html, /First <strong>version/);
    }
    await vote(t, voter, "message", m);
    const mine = await (await getAs(t, voter, page)).text();
    const theirs = await (await getAs(t, asker, page)).text();
    const upButton =
      /aria-label="Votes on Author's answer"[^>]*><button[^>]*vote-up"[^>]*aria-pressed="(\w+)"/;
    assert.equal(upButton.exec(mine)?.[1], "true");
    assert.equal(upButton.exec(theirs)?.[1], "false");
  } finally {
    await t.close();
  }
});

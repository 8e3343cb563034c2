/**
 * The question page's data path: the thread comes from a one-second read
 * cache shared by every viewer, the viewer's own state is read apart — so each viewer still
 * sees their own votes, favorites and follow, hidden posts only reach their author and
 * moderators, and a write shows to its author on the very next load.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  answer,
  ask,
  getAs,
  json,
  type Member,
  postAs,
  publicVoter,
} from "../helpers/community.ts";

/** The page's HTML as `who` gets it (200 expected). */
async function page(t: TestApp, who: Member | null, path: string): Promise<string> {
  const res = await getAs(t, who, path);
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return await res.text();
}

/** The markup of one post (`id` = the message's element id, or the question's card). */
function postHtml(html: string, id: string | null): string {
  const start = id === null ? html.indexOf('data-testid="question"') : html.indexOf(`id="${id}"`);
  assert.ok(start >= 0, `post ${id} not on the page`);
  return html.slice(start, html.indexOf("</article>", start));
}

const pressed = (html: string, label: RegExp) =>
  [...html.matchAll(/<button[^>]*>/g)].map((m) => m[0]).filter((b) => label.test(b)).map((b) =>
    /aria-pressed="true"/.test(b)
  );

Deno.test("question page: each viewer sees their own votes, favorites and follow, not another's, from the same cached thread", async () => {
  const t = await createTestApp();
  try {
    const [asker, helper, ann, ben] = await Promise.all(
      ["Asker", "Helper", "Ann", "Ben"].map((n) => publicVoter(t, n)),
    );
    const qid = await ask(t, asker, { title: "Whose votes does the page show?" });
    const mid = await answer(t, helper, qid, "Each viewer's own.");
    const path = `/questions/${qid}`;
    // Ann votes and favorites; Ben loads the page in between (warming the shared thread).
    await page(t, ben, path);
    for (
      const [url, body] of [
        ["/api/likes", { targetId: qid, targetType: "question", voteType: "up" }],
        ["/api/likes", { targetId: mid, targetType: "message", voteType: "down" }],
        ["/api/favorites", { targetId: mid, targetType: "message" }],
      ] as const
    ) {
      assert.equal((await postAs(t, ann, url, body)).status, 200);
    }
    assert.equal((await postAs(t, ann, `/api/questions/${qid}/follow`, {})).status, 200);
    await page(t, ben, path); // the thread cached again, after the writes

    const annPage = await page(t, ann, path);
    const annQ = postHtml(annPage, null);
    const annM = postHtml(annPage, mid);
    assert.deepEqual(pressed(annQ, /vote-up/), [true], "Ann's up-vote on the question");
    assert.deepEqual(pressed(annM, /vote-down/), [true], "Ann's down-vote on the answer");
    assert.deepEqual(pressed(annM, /favorite-btn/), [true], "Ann's favorite");
    assert.deepEqual(pressed(annQ, /favorite-btn/), [false]);
    assert.deepEqual(pressed(annQ, /follow-toggle/), [true], "Ann follows");

    const benPage = await page(t, ben, path);
    const benQ = postHtml(benPage, null);
    const benM = postHtml(benPage, mid);
    assert.deepEqual(pressed(benQ, /vote-up/), [false]);
    assert.deepEqual(pressed(benM, /vote-down/), [false]);
    assert.deepEqual(pressed(benM, /favorite-btn/), [false]);
    assert.deepEqual(pressed(benQ, /follow-toggle/), [false]);
    // The counts are everyone's: Ann's votes show in both pages.
    assert.match(benQ, /data-testid="upvotes">1</);
    // The HTML page lists no voters; the JSON API still does (docs/interface.md#question-fields).
    assert.ok(!benPage.includes(ann.id), "no voter ids in the page");
    const api = (await json<{ likedBy: string[]; messages: { dislikedBy: string[] }[] }>(
      getAs(t, null, `/api/questions/${qid}`),
    )).body;
    assert.deepEqual(api.likedBy, [ann.id]);
    assert.deepEqual(api.messages[0].dislikedBy, [ann.id]);
  } finally {
    await t.close();
  }
});

Deno.test("question page: a hidden answer shows to its author and moderators only, whoever warmed the cached thread", async () => {
  const t = await createTestApp();
  try {
    const [asker, helper, other, mod] = await Promise.all(
      ["Asker", "Helper", "Other", "Mo"].map((n) => publicVoter(t, n)),
    );
    t.services.config.moderators = [mod.id];
    const qid = await ask(t, asker, { title: "Who sees a hidden answer?" });
    const mid = await answer(t, helper, qid, "Buy cheap watches at spam.example");
    const kept = await answer(t, other, qid, "A real answer stays.");
    const hide = await postAs(t, mod, "/api/mod/actions", {
      targetType: "message",
      targetId: mid,
      action: "hide",
    });
    assert.equal(hide.status, 200);
    const path = `/questions/${qid}`;
    // Both orders within the cache's second (the hide dropped it; the first load fills it):
    // the moderator first, then others, then the author; again with others first.
    for (const order of [[mod, other, null, helper], [other, helper, null, mod]] as const) {
      for (const who of order) {
        const html = await page(t, who, path);
        assert.ok(html.includes(`id="${kept}"`));
        const sees = who === helper || who === mod;
        assert.equal(
          html.includes("Buy cheap watches"),
          sees,
          `${who?.name ?? "signed out"} ${sees ? "sees" : "must not see"} the hidden answer`,
        );
        assert.equal(html.includes('data-testid="hidden-banner"'), sees);
      }
    }
  } finally {
    await t.close();
  }
});

Deno.test("question page: a deleted question stays 404 to others and open to its author, whoever loaded it first", async () => {
  const t = await createTestApp();
  try {
    const [asker, other] = await Promise.all(["Asker", "Other"].map((n) => publicVoter(t, n)));
    const qid = await ask(t, asker, { title: "A question about to be deleted" });
    const path = `/questions/${qid}`;
    await page(t, other, path);
    const del = await t.request(`/api/questions/${qid}`, {
      method: "DELETE",
      headers: { cookie: asker.cookie, origin: t.services.config.appOrigin },
    });
    assert.equal(del.status, 200);
    await del.body?.cancel();
    assert.match(await page(t, asker, path), /data-testid="deleted-banner"/);
    for (const who of [other, null]) {
      const res = await getAs(t, who, path);
      assert.equal(res.status, 404);
      await res.body?.cancel();
    }
    assert.match(await page(t, asker, path), /data-testid="deleted-banner"/);
  } finally {
    await t.close();
  }
});

Deno.test("question page: a new answer, an edit and a vote show to their author on the next load, within the cache's second", async () => {
  const t = await createTestApp();
  try {
    const [asker, helper, voter] = await Promise.all(
      ["Asker", "Helper", "Voter"].map((n) => publicVoter(t, n)),
    );
    const qid = await ask(t, asker, { title: "Does my answer show at once?" });
    const path = `/questions/${qid}`;
    assert.match(await page(t, helper, path), /No answers yet/); // cached now
    const mid = await answer(t, helper, qid, "My fresh answer, shown at once.");
    let html = await page(t, helper, path);
    assert.ok(html.includes("My fresh answer, shown at once."), "the new answer");
    assert.ok(html.includes(`id="${mid}"`));
    const edit = await t.request(`/api/messages/${mid}`, {
      method: "PATCH",
      headers: {
        cookie: helper.cookie,
        origin: t.services.config.appOrigin,
        "content-type": "application/json",
      },
      body: JSON.stringify({ content: "My edited answer, shown at once." }),
    });
    assert.equal(edit.status, 200);
    await edit.body?.cancel();
    html = await page(t, helper, path);
    assert.ok(html.includes("My edited answer, shown at once."), "the edit");
    await page(t, voter, path);
    const vote = await postAs(t, voter, "/api/likes", {
      targetId: mid,
      targetType: "message",
      voteType: "up",
    });
    assert.equal(vote.status, 200);
    const m = postHtml(await page(t, voter, path), mid);
    assert.deepEqual(pressed(m, /vote-up/), [true], "the voter's own vote");
    assert.match(m, /data-testid="upvotes">1</, "the count moved");
  } finally {
    await t.close();
  }
});

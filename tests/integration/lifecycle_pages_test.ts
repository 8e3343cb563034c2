/**
 * Content lifecycle pages through the HTTP surface: the Markdown preview endpoint and the pages of
 * the content lifecycle (revisions, question edit form, accepted mark, sort links, own-post
 * vote buttons, feed badges and counts).
 */
import assert from "node:assert/strict";
import { createTestApp, jsonWrite, type TestApp } from "../helpers/app.ts";
import { answer, ask, getAs, json, member, postAs } from "../helpers/community.ts";
import { renderMarkdown } from "@/lib/markdown.ts";
import { PREVIEW_MAX } from "@/lib/schemas/markdown.ts";
import { PREVIEW_RATE } from "@/routes/api/markdown/preview.ts";

async function withApp(fn: (t: TestApp) => Promise<void>) {
  const t = await createTestApp();
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

Deno.test("markdown preview: same sanitized HTML as the page renderer; session only; size and rate limited", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const text = "**bold** <script>alert(1)</script> [x](javascript:alert(1))\n\n```\ncode\n```";
    const ok = await json<{ html: string }>(postAs(t, ada, "/api/markdown/preview", { text }));
    assert.equal(ok.status, 200);
    assert.match(ok.body.html, /<strong>bold<\/strong>/);
    assert.doesNotMatch(ok.body.html, /<script|javascript:/);
    assert.match(ok.body.html, /<pre tabindex="0">/);
    assert.equal(ok.body.html, renderMarkdown(text, "preview-"));

    const anon = await postAs(t, null, "/api/markdown/preview", { text });
    assert.equal(anon.status, 401);
    await anon.body?.cancel();
    const long = await json(
      postAs(t, ada, "/api/markdown/preview", { text: "a".repeat(PREVIEW_MAX + 1) }),
    );
    assert.equal(long.status, 400);
    const bad = await json(postAs(t, ada, "/api/markdown/preview", { text: 5 }));
    assert.equal(bad.status, 400);

    for (let i = 1; i < PREVIEW_RATE; i++) {
      const r = await postAs(t, ada, "/api/markdown/preview", { text: "x" });
      assert.equal(r.status, 200);
      await r.body?.cancel();
    }
    const over = await json<{ error: string }>(
      postAs(t, ada, "/api/markdown/preview", { text: "x" }),
    );
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers.get("retry-after")) >= 1);
  });
});

async function page(t: TestApp, who: Parameters<typeof getAs>[1], path: string) {
  const res = await getAs(t, who, path);
  return { status: res.status, html: await res.text() };
}

Deno.test("question page: accepted answer first with its mark, edited note links to revisions, own votes disabled with the reason, sort links keep the order", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q = await ask(t, ada, { title: "Which cache for KV reads?", description: "Plain" });
    const first = await answer(t, bob, q, "First answer");
    const second = await answer(t, bob, q, "Second answer, to be accepted");
    await json(postAs(t, ada, `/api/questions/${q}/accept`, { messageId: second }));
    const edit = await t.request(`/api/messages/${first}`, {
      method: "PATCH",
      headers: jsonWrite(t, bob.cookie),
      body: JSON.stringify({ content: "First answer, improved" }),
    });
    assert.equal(edit.status, 200);
    await edit.body?.cancel();

    const asAda = await page(t, ada, `/questions/${q}`);
    assert.equal(asAda.status, 200);
    // Order on the page itself (the head's structured data names answers too).
    const adaBody = asAda.html.slice(asAda.html.indexOf("<body"));
    const acceptedAt = adaBody.indexOf('data-testid="accepted-mark"');
    assert.ok(acceptedAt > 0 && acceptedAt < adaBody.indexOf("First answer, improved"));
    assert.match(asAda.html, /Accepted answer/);
    assert.match(asAda.html, new RegExp(`href="/questions/${q}/revisions\\?message=${first}"`));
    // The asker's Accept toggles: pressed on the accepted answer, not on the other.
    assert.match(asAda.html, /accept-btn is-accepted" aria-pressed="true"/);
    assert.match(asAda.html, /accept-btn" aria-pressed="false"/);
    assert.match(asAda.html, /You can(&#39;|')t vote on your own post/); // her own question
    assert.match(asAda.html, /href="\/questions\/[^"]+\?sort=newest#answers-heading"/);

    const asBob = await page(t, bob, `/questions/${q}?sort=oldest`);
    const bobBody = asBob.html.slice(asBob.html.indexOf("<body"));
    assert.ok(bobBody.indexOf("First answer, improved") < bobBody.indexOf("Second answer"));
    assert.match(asBob.html, /aria-current="page"[^>]*>Oldest|>Oldest</);
    assert.doesNotMatch(asBob.html, /accept-btn/); // not the asker

    const revs = await page(t, null, `/questions/${q}/revisions?message=${first}`);
    assert.equal(revs.status, 200);
    assert.match(revs.html, /<ins>.*improved/s);
    assert.match(revs.html, /\[added: /);
  });
});

Deno.test("question edit page: the author saves a new revision; a refused edit keeps the typed input; others get 403", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q = await ask(t, ada, { title: "Original title here", description: "Old words" });
    const form = (body: Record<string, string>, who = ada) =>
      t.request(`/questions/${q}/edit`, {
        method: "POST",
        headers: {
          cookie: who.cookie,
          origin: t.services.config.appOrigin,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(body).toString(),
      });
    const bad = await form({ title: "x", description: "Kept draft text", tags: "a" });
    assert.equal(bad.status, 400);
    const badHtml = await bad.text();
    assert.match(badHtml, /Kept draft text/);
    assert.match(badHtml, /value="x"/);
    const ok = await form({ title: "A better title", description: "New words", tags: "Deno KV" });
    assert.equal(ok.status, 303);
    await ok.body?.cancel();
    const view = await page(t, null, `/questions/${q}`);
    assert.match(view.html, /A better title/);
    assert.match(view.html, new RegExp(`href="/questions/${q}/revisions"`));
    const revs = await page(t, null, `/questions/${q}/revisions`);
    assert.match(revs.html, /<del>.*Old/s);
    assert.match(revs.html, /<ins>.*deno-kv/s);
    const other = await page(t, bob, `/questions/${q}/edit`);
    assert.equal(other.status, 403);
    const post = await form({ title: "Bob's title here", description: "", tags: "" }, bob);
    assert.equal(post.status, 403);
    await post.body?.cancel();
  });
});

Deno.test("feed: answers count top-level answers only, answered badge, unanswered filter link, a search counts its matches, deleted notice", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q = await ask(t, ada, {
      title: "Answered question here",
      description: "| a | b |\n|---|---|\n| 1 | 2 |\n\nWords",
    });
    await ask(t, ada, { title: "Nobody answered this one" });
    const a = await answer(t, bob, q, "An answer");
    await answer(t, ada, q, "A reply", a);
    await json(postAs(t, ada, `/api/questions/${q}/accept`, { messageId: a }));
    const home = await page(t, null, "/");
    assert.match(home.html, /<strong>1<\/strong> answer</);
    assert.match(home.html, /data-testid="answered-badge"/);
    assert.match(home.html, /href="\/\?filter=unanswered"/);
    assert.doesNotMatch(home.html, /\| a \||---/);
    const unanswered = await page(t, null, "/?filter=unanswered");
    assert.doesNotMatch(unanswered.html, /Answered question here/);
    assert.match(unanswered.html, /1 question matches/);
    const none = await page(t, null, "/?q=zebracorn");
    assert.match(none.html, /No questions match/);
    assert.doesNotMatch(none.html, /2 questions/);
    const some = await page(t, null, "/?q=answered");
    assert.match(some.html, /2 questions match|1 question matches/);
    const deleted = await page(t, null, "/?deleted=1");
    assert.match(deleted.html, /Your question was deleted/);
  });
});

Deno.test("deleted question page: its author still opens it with a 'deleted' banner; others get 404", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const id = await ask(t, ada, { title: "A question Ada will delete" });
    const del = await t.request(`/api/questions/${id}`, {
      method: "DELETE",
      headers: jsonWrite(t, ada.cookie),
    });
    assert.equal(del.status, 200);
    const own = await getAs(t, ada, `/questions/${id}`);
    assert.equal(own.status, 200);
    const html = await own.text();
    assert.match(html, /data-testid="deleted-banner"/);
    assert.match(html, /A question Ada will delete/);
    const other = await getAs(t, bob, `/questions/${id}`);
    assert.equal(other.status, 404);
    await other.body?.cancel();
    const anon = await getAs(t, null, `/questions/${id}`);
    assert.equal(anon.status, 404);
    await anon.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("revisions page: a change of line breaks shows as a line break mark, not as changed words", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const q = await ask(t, ada, { title: "Line breaks in revisions" });
    const m = await answer(t, ada, q, "Keep every word here. Even this one");
    const edit = await t.request(`/api/messages/${m}`, {
      method: "PATCH",
      headers: jsonWrite(t, ada.cookie),
      body: JSON.stringify({ content: "Keep every word here.\n\nEven this one" }),
    });
    assert.equal(edit.status, 200);
    const revs = await page(t, null, `/questions/${q}/revisions?message=${m}`);
    assert.equal(revs.status, 200);
    const body = revs.html.slice(revs.html.indexOf("<body"));
    assert.match(body, /class="diff-ws" title="Line break added"/);
    assert.match(body, /\[line break added\]/);
    assert.doesNotMatch(body, /\[added: |\[removed: /, "no word is marked as changed");
  });
});

/**
 * Community pages rendered by the server: the feed's tabs, search, tags, pages and empty
 * states; the ask form's validation and redirect; the question page's sanitized Markdown
 * and sign-in prompts.
 */
import assert from "node:assert/strict";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { createTestApp } from "../helpers/app.ts";
import { answer, ask, getAs, member } from "../helpers/community.ts";

const author = { id: "u-1", name: "Ada", avatar: null };

Deno.test("feed page: tabs, search box, tag links, pages and empty states", async () => {
  const t = await createTestApp();
  try {
    for (let i = 0; i < 23; i++) {
      await createQuestion(t.kv, {
        title: `Feed item ${i}`,
        tags: i === 0 ? ["Deno KV"] : [],
        author,
        createdBy: i === 1 ? "agent" : "user",
      });
    }
    const html = await (await t.request("/")).text();
    assert.match(html, /<nav class="tabs" aria-label="Sort questions">/);
    assert.match(html, /<a href="\/" aria-current="page">New<\/a>/);
    assert.match(html, /<a href="\/\?sort=hot">Hot<\/a>/);
    assert.match(html, /<form class="feed-search row" role="search" method="get" action="\/">/);
    assert.match(html, /Page 1 of 2/);
    assert.match(html, /href="\/\?page=2"/);
    assert.equal((html.match(/class="card question-item"/g) ?? []).length, 20);

    const page2 = await (await t.request("/?page=2")).text();
    assert.match(page2, /Feed item 0/);
    // Tags are stored in their canonical form (lower case, spaces joined by "-").
    assert.match(page2, /href="\/\?tag=deno-kv"/);
    assert.match(page2, /written by .*'s agent/);
    assert.match(page2, /rel="prev" href="\/"/);

    const tagged = await (await t.request("/?tag=deno%20kv&sort=hot")).text();
    assert.match(tagged, /Questions tagged “deno kv”/);
    assert.match(tagged, /Feed item 0/);
    assert.match(tagged, /clear tag/);

    const none = await (await t.request("/?q=nothing-like-this")).text();
    assert.match(none, /data-testid="empty-results"/);
    assert.match(none, /No questions match/);
    const past = await (await t.request("/?page=40")).text();
    assert.match(past, /data-testid="empty-page"/);
    // A hand-edited bad parameter is not an error page.
    const bad = await t.request("/?page=-4&sort=weird");
    assert.equal(bad.status, 200);
    await bad.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("feed empty states say what is true of each mix of search, tag and Unanswered", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q = await ask(t, ada, { title: "Centering a div with grid", tags: ["css"] });
    await answer(t, bob, q, "place-items: center on the parent.");
    /** The empty state's reason, as text, and its links. */
    const empty = async (path: string) => {
      const html = await (await t.request(path)).text();
      assert.match(html, /data-testid="empty-results"/, path);
      const reason = /data-testid="empty-reason">([^]*?)<\/p>/.exec(html)![1]
        .replace(/<!--.*?-->/g, "");
      const box = html.slice(html.indexOf('data-testid="empty-results"'));
      const links = [
        ...box.slice(0, box.indexOf("</div>")).matchAll(/href="([^"]*)"[^>]*>([^<]*)</g),
      ]
        .map((m) => [m[1].replaceAll("&amp;", "&"), m[2]]);
      return { reason, links };
    };

    // css has an answered question: not "nothing tagged", and no "other words" to try.
    const tagUnanswered = await empty("/?filter=unanswered&tag=css");
    assert.equal(
      tagUnanswered.reason,
      "No unanswered questions tagged “css”. See them all, answered ones included, or ask your own.",
    );
    assert.deepEqual(tagUnanswered.links, [
      ["/?tag=css", "All questions tagged “css”"],
      ["/ask", "Ask a question"],
    ]);
    const tagOnly = await empty("/?tag=sass");
    assert.equal(
      tagOnly.reason,
      "Nothing is tagged “sass” yet. Be the first to ask about it, or browse every question.",
    );
    assert.deepEqual(tagOnly.links, [["/", "All questions"], ["/ask", "Ask a question"]]);
    const search = await empty("/?q=zzqxwv");
    assert.equal(search.reason, "Nothing matches “zzqxwv”. Try other words, or ask it yourself.");
    const searchTag = await empty("/?q=zzqxwv&tag=css");
    assert.equal(
      searchTag.reason,
      "Nothing tagged “css” matches “zzqxwv”. Try other words, or ask it yourself.",
    );
    assert.deepEqual(searchTag.links[0], ["/?q=zzqxwv", "Search every tag"]);
    const searchUnanswered = await empty("/?q=grid&filter=unanswered");
    assert.equal(
      searchUnanswered.reason,
      "No unanswered question matches “grid”. Try other words, or ask it yourself.",
    );
    assert.deepEqual(searchUnanswered.links[0], ["/?q=grid", "Include answered"]);
    const unanswered = await empty("/?filter=unanswered");
    assert.equal(
      unanswered.reason,
      "No unanswered questions. Every recent question has an answer: ask one of your own.",
    );
  } finally {
    await t.close();
  }
});

Deno.test("ask page: sign-in prompt when signed out; validation messages; redirect on success", async () => {
  const t = await createTestApp();
  try {
    const anon = await (await t.request("/ask")).text();
    assert.match(anon, /href="\/signin\?returnTo=%2Fask"/);
    assert.doesNotMatch(anon, /<form method="post" action="\/ask"/);

    const ada = await member(t, "Ada");
    const form = (fields: Record<string, string>) =>
      t.request("/ask", {
        method: "POST",
        headers: {
          cookie: ada.cookie,
          origin: t.services.config.appOrigin,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(fields).toString(),
        redirect: "manual",
      });
    const invalid = await form({ title: "x", description: "kept", tags: "a, b" });
    assert.equal(invalid.status, 400);
    const page = await invalid.text();
    assert.match(page, /Titles need 2 to 120 characters; this one has 1\./);
    assert.match(page, /aria-invalid="true"/);
    assert.match(page, /value="a, b"/, "entered values are kept");

    const ok = await form({ title: "A real question", description: "", tags: "one, two" });
    assert.equal(ok.status, 303);
    const location = ok.headers.get("location")!;
    assert.match(location, /^\/questions\/q-[a-z0-9]+\?asked=1$/);
    const shown = await (await getAs(t, ada, location)).text();
    assert.match(shown, /Your question is live/);
    assert.match(shown, /href="\/\?tag=one"/);

    const crossSite = await t.request("/ask", {
      method: "POST",
      headers: {
        cookie: ada.cookie,
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "title=Forged+question",
    });
    assert.equal(crossSite.status, 403);
    await crossSite.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("question page: sanitized Markdown, threaded replies, prompts, 404", async () => {
  // Established accounts (no account is new): their links keep the site's rel
  // (a new account's: tests/integration/new_accounts_test.ts).
  const t = await createTestApp({ env: { NEW_ACCOUNT_HOURS: "0" } });
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const qid = await ask(t, ada, {
      title: "Markdown <em>test</em>",
      description:
        "**bold** <script>alert(1)</script> [x](javascript:alert(1)) [ok](https://ok.example)",
    });
    const a1 = await answer(t, bob, qid, "Answer with `code`");
    await answer(t, ada, qid, "A reply <img src=x onerror=alert(1)>", a1);

    const html = await (await t.request(`/questions/${qid}`)).text();
    assert.match(
      html,
      /<h1 class="question-heading" dir="auto">Markdown &lt;em>test&lt;\/em><\/h1>/,
    );
    assert.match(html, /<strong>bold<\/strong> &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /<a rel="nofollow ugc noopener">x<\/a>/);
    assert.match(html, /<a href="https:\/\/ok.example" rel="nofollow ugc noopener">ok<\/a>/);
    assert.doesNotMatch(html, /<img src="x"/);
    assert.match(html, /<ol class="replies">/);
    assert.match(html, /<h2 id="answers-heading">1 answer · 1 reply<\/h2>/);
    // Signed out: a sign-in prompt returning here, no answer form, no reply buttons.
    assert.match(html, new RegExp(`href="/signin\\?returnTo=%2Fquestions%2F${qid}"`));
    assert.doesNotMatch(html, /Post answer/);
    assert.doesNotMatch(html, />Reply</);

    const mine = await (await getAs(t, bob, `/questions/${qid}`)).text();
    assert.match(mine, /Post answer/);
    assert.match(mine, /Reply/);

    const missing = await t.request("/questions/q-nope");
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /Page not found/);
  } finally {
    await t.close();
  }
});

Deno.test("agent keys page: prompt when signed out, the panel when signed in", async () => {
  const t = await createTestApp();
  try {
    const anon = await (await t.request("/profile/agent-keys")).text();
    assert.match(anon, /href="\/signin\?returnTo=%2Fprofile%2Fagent-keys"/);
    const ada = await member(t, "Ada");
    const res = await getAs(t, ada, "/profile/agent-keys");
    assert.equal(res.headers.get("cache-control"), "no-store");
    const html = await res.text();
    assert.match(html, /data-island="AgentKeysPanel"/);
    assert.match(html, /0 of 5 keys in use/);
  } finally {
    await t.close();
  }
});

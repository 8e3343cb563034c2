/**
 * Atom feeds (docs/interface.md#feeds) through the HTTP surface, parsed by a real feed
 * parser: newest questions, a tag, a question's answers and a user's activity; hidden and
 * deleted posts never appear; a private-activity user has no feed; pages link their feed.
 * Strict XML parsers accept every feed whatever a post holds and read its texts back
 * exactly; any tag's feed answers; entry links open the thread page holding the answer.
 */
import assert from "node:assert/strict";
import { parseFeed } from "@rowanmanning/feed-parser";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { saveSettings } from "@/lib/profile/settings.ts";
import { FEED_ENTRIES } from "@/lib/feeds/feeds.ts";
import { ANSWERS_PER_PAGE } from "@/lib/community/thread.ts";
import { jsonWrite, type TestApp } from "../helpers/app.ts";
import { createTestApp } from "../helpers/app.ts";
import { answer, ask, getAs, member, postAs } from "../helpers/community.ts";

async function feedOf(t: TestApp, path: string) {
  const res = await t.request(path);
  assert.equal(res.status, 200, path);
  assert.match(res.headers.get("content-type") ?? "", /^application\/atom\+xml/);
  assert.match(res.headers.get("cache-control") ?? "", /public, max-age=\d+/);
  const feed = parseFeed(await res.text());
  assert.equal(feed.meta.type, "atom");
  return feed;
}

function alternates(html: string): { title: string; href: string }[] {
  return [...html.matchAll(/<link rel="alternate" type="application\/atom\+xml"([^>]*)>/g)].map(
    (m) => ({
      title: /title="([^"]*)"/.exec(m[1])?.[1] ?? "",
      href: /href="([^"]*)"/.exec(m[1])?.[1] ?? "",
    }),
  );
}

Deno.test("feeds: newest questions, a tag, a question's answers and a user's activity, without hidden or deleted posts", async () => {
  const t = await createTestApp({ env: { NEW_ACCOUNT_HOURS: "0" } });
  try {
    const origin = t.services.config.appOrigin;
    const [ada, bob, mod] = await Promise.all([
      member(t, "Ada"),
      member(t, "Bob"),
      member(t, "Mod"),
    ]);
    t.services.config.moderators = [mod.id];
    const kept = await ask(t, ada, {
      title: "How do atomic counters work in Deno KV?",
      description: "I need **sum** semantics.",
      tags: ["Deno KV"],
    });
    const other = await ask(t, bob, { title: "Which editor for Preact?", tags: ["preact"] });
    const hidden = await ask(t, ada, { title: "A question moderators hid", tags: ["deno-kv"] });
    const hideRes = await postAs(t, mod, "/api/mod/actions", {
      targetType: "question",
      targetId: hidden,
      action: "hide",
    });
    assert.equal(hideRes.status, 200);
    await hideRes.body?.cancel();
    const a1 = await answer(t, bob, kept, "Use `kv.atomic().sum()` on a Deno.KvU64.");
    const a2 = await answer(t, bob, kept, "This answer will be deleted.");
    const del = await t.request(`/api/messages/${a2}`, {
      method: "DELETE",
      headers: jsonWrite(t, bob.cookie),
    });
    assert.equal(del.status, 200);
    await del.body?.cancel();

    // Newest questions.
    const all = await feedOf(t, "/feeds/questions");
    assert.equal(all.title, "Newest questions · Parley");
    assert.equal(all.url, `${origin}/`);
    assert.deepEqual(all.items.map((i) => i.title), [
      "Which editor for Preact?",
      "How do atomic counters work in Deno KV?",
    ]);
    assert.equal(all.items[1].url, `${origin}/questions/${kept}`);
    assert.deepEqual(all.items[1].authors.map((a) => a.name), ["Ada"]);
    assert.match(all.items[1].content ?? "", /<strong>sum<\/strong>/);
    assert.ok(!all.items.some((i) => i.url?.includes(hidden)));
    // Every entry link answers 200.
    for (const item of all.items) {
      const res = await t.request(new URL(item.url!).pathname);
      assert.equal(res.status, 200);
      await res.body?.cancel();
    }

    // One tag (in any case).
    const tag = await feedOf(t, "/feeds/tags/Deno-KV");
    assert.equal(tag.title, "Questions tagged “deno-kv” · Parley");
    assert.equal(tag.url, `${origin}/?tag=deno-kv`);
    assert.deepEqual(tag.items.map((i) => i.url), [`${origin}/questions/${kept}`]);
    const empty = await feedOf(t, "/feeds/tags/nothing-here");
    assert.deepEqual(empty.items, []);

    // A question's answers: the deleted one is absent.
    const answers = await feedOf(t, `/feeds/questions/${kept}`);
    assert.equal(answers.title, "Answers to “How do atomic counters work in Deno KV?” · Parley");
    assert.deepEqual(answers.items.map((i) => i.url), [
      `${origin}/questions/${kept}?answer=${a1}#${a1}`,
    ]);
    // Its Atom id is the one it always had: a reader does not see it again as new.
    assert.deepEqual(answers.items.map((i) => i.id), [`${origin}/questions/${kept}#${a1}`]);
    assert.match(answers.items[0].content ?? "", /<code>kv\.atomic\(\)\.sum\(\)<\/code>/);
    assert.ok(!JSON.stringify(answers).includes("will be deleted"));
    // The hidden question has no answers feed, nor an unknown one.
    assert.equal((await t.request(`/feeds/questions/${hidden}`)).status, 404);
    assert.equal((await t.request("/feeds/questions/q-nope")).status, 404);

    // A user's activity: questions and answers, newest first, hidden ones absent.
    const bobs = await feedOf(t, `/feeds/users/${bob.id}`);
    assert.equal(bobs.title, "Bob's activity · Parley");
    assert.equal(bobs.url, `${origin}/u/${bob.id}`);
    assert.deepEqual(bobs.items.map((i) => i.title), [
      "Answered: How do atomic counters work in Deno KV?",
      "Asked: Which editor for Preact?",
    ]);
    const adas = await feedOf(t, `/feeds/users/${ada.id}`);
    assert.deepEqual(adas.items.map((i) => i.url), [`${origin}/questions/${kept}`]);
    assert.equal((await t.request("/feeds/users/u-nobody")).status, 404);
    assert.ok(other);
  } finally {
    await t.close();
  }
});

Deno.test("feeds: a user whose activity is private has no feed and no feed link", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    await ask(t, ada, { title: "A public question from a private person" });
    await saveSettings(t.kv, ada.id, { activityVisibility: "private" });
    const res = await t.request(`/feeds/users/${ada.id}`);
    assert.equal(res.status, 404);
    await res.body?.cancel();
    const html = await (await t.request(`/u/${ada.id}`)).text();
    assert.deepEqual(alternates(html), []);
  } finally {
    await t.close();
  }
});

Deno.test("feeds: home, tag, question and profile pages link their feed; feeds are bounded and cached like pages", async () => {
  const t = await createTestApp({ env: { LIMIT_QUESTIONS_PER_HOUR: "100" } });
  try {
    const ada = await member(t, "Ada");
    let qid = "";
    for (let i = 0; i < FEED_ENTRIES + 3; i++) {
      qid = await ask(t, ada, { title: `Bounded feed question ${i}`, tags: ["bulk"] });
    }
    const home = alternates(await (await t.request("/")).text());
    assert.deepEqual(home, [{ title: "Newest questions (Atom)", href: "/feeds/questions" }]);
    const tagged = alternates(await (await t.request("/?tag=Bulk")).text());
    assert.deepEqual(tagged, [{
      title: "Questions tagged “bulk” (Atom)",
      href: "/feeds/tags/bulk",
    }]);
    const question = alternates(await (await t.request(`/questions/${qid}`)).text());
    assert.deepEqual(question, [{
      title: `Answers to “Bounded feed question ${FEED_ENTRIES + 2}” (Atom)`,
      href: `/feeds/questions/${qid}`,
    }]);
    const profile = alternates(await (await getAs(t, null, `/u/${ada.id}`)).text());
    assert.deepEqual(profile, [{ title: "Ada's activity (Atom)", href: `/feeds/users/${ada.id}` }]);
    // Each linked feed answers and holds at most FEED_ENTRIES entries.
    for (const { href } of [...home, ...tagged, ...question, ...profile]) {
      const feed = await feedOf(t, href);
      assert.ok(feed.items.length <= FEED_ENTRIES, href);
    }
    assert.equal((await feedOf(t, "/feeds/questions")).items.length, FEED_ENTRIES);
    assert.equal((await feedOf(t, `/feeds/users/${ada.id}`)).items.length, FEED_ENTRIES);

    // Signed out, a second read is a page-cache hit.
    const first = await t.request("/feeds/tags/bulk");
    await first.body?.cancel();
    const second = await t.request("/feeds/tags/bulk");
    assert.equal(second.headers.get("x-parley-cache"), "hit");
    await second.body?.cancel();
  } finally {
    await t.close();
  }
});

/** The Atom text of `path` after checking it answers 200 as a well-formed XML document. */
async function wellFormedFeed(t: TestApp, path: string): Promise<string> {
  const res = await t.request(path);
  assert.equal(res.status, 200, path);
  const xml = await res.text();
  assert.equal(XMLValidator.validate(xml), true, `${path} is well-formed XML`);
  return xml;
}

/** The feed's and its entries' texts as a strict XML parser reads them (no trimming). */
function feedTexts(xml: string) {
  const text = (node: unknown): string =>
    typeof node === "string" ? node : String((node as { "#text"?: unknown })["#text"] ?? "");
  const feed = new XMLParser({
    ignoreAttributes: false,
    trimValues: false,
    isArray: (name) => name === "entry",
  }).parse(xml).feed;
  return {
    title: text(feed.title),
    subtitle: text(feed.subtitle),
    entries: (feed.entry ?? []).map((e: Record<string, unknown>) => ({
      title: text(e.title),
      author: text((e.author as { name: unknown }).name),
      summary: text(e.summary),
      content: text(e.content),
    })),
  };
}

Deno.test("feeds: control characters in posts are left out of every feed, which strict XML parsers accept with the rest of the text", async () => {
  const t = await createTestApp({ env: { NEW_ACCOUNT_HOURS: "0" } });
  try {
    const [ada, bob] = await Promise.all([member(t, "Ada"), member(t, "Bob")]);
    const qid = await ask(t, ada, {
      title: "Why does my terminal beep?",
      description: "It prints a \u0001 b and then \u001f beeps.",
      tags: ["terminals"],
    });
    const a1 = await answer(t, bob, qid, "The bell is \u0007 and backspace \u0008 too.");
    await answer(t, ada, qid, "Form feed \u000c was here.", a1);
    for (
      const path of [
        "/feeds/questions",
        "/feeds/tags/terminals",
        `/feeds/questions/${qid}`,
        `/feeds/users/${ada.id}`,
        `/feeds/users/${bob.id}`,
      ]
    ) {
      const xml = await wellFormedFeed(t, path);
      const controls = [...xml].filter((c) => c < " " && !"\t\n\r".includes(c));
      assert.deepEqual(controls, [], `${path}: no C0 control but tab and line ends`);
      const all = JSON.stringify(feedTexts(xml).entries);
      if (path.startsWith("/feeds/questions/")) {
        assert.ok(all.includes("The bell is  and backspace  too."), path);
        assert.ok(all.includes("Form feed  was here."), path);
      } else if (path === `/feeds/users/${bob.id}`) {
        assert.ok(all.includes("The bell is  and backspace  too."), path);
      } else {
        assert.ok(all.includes("It prints a  b and then  beeps."), path);
      }
      // A feed reader reads the same.
      assert.equal(parseFeed(xml).meta.type, "atom");
    }
  } finally {
    await t.close();
  }
});

Deno.test("feeds: a title, subtitle, entry title or author holding <, & or quotes reads back exactly", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, `Ada & "Bo" <Co>`);
    const title = `Is 1 < 2 && "x" > 'y'?`;
    const qid = await ask(t, ada, { title, description: "See <b>this</b> & that." });
    await answer(t, ada, qid, "Yes: `1 < 2`.");
    const answers = feedTexts(await wellFormedFeed(t, `/feeds/questions/${qid}`));
    assert.equal(answers.title, `Answers to “${title}” · Parley`);
    assert.equal(answers.subtitle, `The newest answers and replies to “${title}”.`);
    assert.equal(answers.entries[0].title, `Answer by Ada & "Bo" <Co> to “${title}”`);
    assert.equal(answers.entries[0].author, `Ada & "Bo" <Co>`);
    assert.equal(answers.entries[0].summary, "Yes: 1 < 2.");
    const newest = feedTexts(await wellFormedFeed(t, "/feeds/questions"));
    assert.equal(newest.entries[0].title, title);
    assert.equal(newest.entries[0].summary, "See this & that.");
    const user = feedTexts(await wellFormedFeed(t, `/feeds/users/${ada.id}`));
    assert.equal(user.title, `Ada & "Bo" <Co>'s activity · Parley`);
    assert.equal(user.subtitle, `The newest questions and answers of Ada & "Bo" <Co> on Parley.`);
    // The feed reader the other tests use reads the same.
    assert.equal(
      parseFeed(await wellFormedFeed(t, `/feeds/questions/${qid}`)).title,
      answers.title,
    );
  } finally {
    await t.close();
  }
});

Deno.test("feeds: any tag a question carries has a feed — +, #, accents, other scripts — while ids stay strict", async () => {
  const t = await createTestApp();
  try {
    const origin = t.services.config.appOrigin;
    const ada = await member(t, "Ada");
    const cases = [
      { tag: "Café", path: "/feeds/tags/caf%C3%A9", canonical: "café" },
      { tag: "C++", path: "/feeds/tags/c%2B%2B", canonical: "c++" },
      { tag: "日本語", path: "/feeds/tags/%E6%97%A5%E6%9C%AC%E8%AA%9E", canonical: "日本語" },
      { tag: "C#", path: "/feeds/tags/c%23", canonical: "c#" },
    ];
    for (const c of cases) {
      const qid = await ask(t, ada, { title: `A question about ${c.tag}`, tags: [c.tag] });
      // The tag page advertises the feed it answers.
      const page = await (await t.request(`/?tag=${encodeURIComponent(c.tag)}`)).text();
      assert.deepEqual(alternates(page).map((a) => a.href), [c.path], c.tag);
      const feed = await feedOf(t, c.path);
      assert.equal(feed.title, `Questions tagged “${c.canonical}” · Parley`);
      assert.deepEqual(feed.items.map((i) => i.url), [`${origin}/questions/${qid}`], c.path);
    }
    // Another form of the same tag reads the same feed; an over-long tag has none.
    assert.equal((await feedOf(t, "/feeds/tags/CAF%C3%89")).items.length, 1);
    const long = await t.request(`/feeds/tags/${"x".repeat(41)}`);
    assert.equal(long.status, 404);
    await long.body?.cancel();
    // Ids elsewhere keep the strict check.
    for (const path of ["/feeds/questions/c%2B%2B", "/feeds/users/caf%C3%A9", "/questions/c%23"]) {
      const res = await t.request(path);
      assert.equal(res.status, 404, path);
      await res.body?.cancel();
    }
  } finally {
    await t.close();
  }
});

Deno.test("feeds: an answer's or reply's link opens the thread page holding it, past the first page too", async () => {
  const t = await createTestApp({ env: { NEW_ACCOUNT_HOURS: "0" } });
  try {
    const origin = t.services.config.appOrigin;
    const [ada, bob] = await Promise.all([member(t, "Ada"), member(t, "Bob")]);
    const qid = await ask(t, ada, { title: "A long thread" });
    const ids: string[] = [];
    for (let i = 0; i <= ANSWERS_PER_PAGE; i++) {
      ids.push(await answer(t, i % 2 ? ada : bob, qid, `Answer number ${i}`));
    }
    const reply = await answer(t, ada, qid, "A reply to the first answer", ids[0]);
    // One answer is on the second page: the question's own address does not show it.
    const first = await (await t.request(`/questions/${qid}`)).text();
    const onFirst = ids.filter((id) => first.includes(`id="${id}"`));
    assert.equal(onFirst.length, ANSWERS_PER_PAGE);

    const feed = await feedOf(t, `/feeds/questions/${qid}`);
    const urls = feed.items.map((i) => i.url!);
    assert.ok(urls.includes(`${origin}/questions/${qid}?answer=${ids[0]}#${reply}`), "the reply");
    const bobs = await feedOf(t, `/feeds/users/${bob.id}`);
    for (const url of [...urls, ...bobs.items.map((i) => i.url!)]) {
      const u = new URL(url);
      const id = decodeURIComponent(u.hash.slice(1));
      assert.equal(u.searchParams.get("answer"), id === reply ? ids[0] : id, url);
      const html = await (await t.request(u.pathname + u.search)).text();
      assert.ok(html.includes(`id="${id}"`), `${url} shows the message`);
    }
  } finally {
    await t.close();
  }
});

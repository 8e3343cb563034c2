/**
 * Discoverable pages (docs/interface.md#discoverable-pages): robots.txt, and the sitemap
 * index and its pages read with a real XML parser; every listed URL answers 200 through
 * the app, and no hidden or deleted question nor private profile is listed; each page's
 * canonical link, description and cards, read with an HTML parser; a question page's QAPage
 * JSON-LD, checked by structured-data-testing-tool: none without an answer, whole post texts,
 * answer urls that open the page holding each answer.
 */
import assert from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import { parseHTML } from "linkedom";
import { saveSettings } from "@/lib/profile/settings.ts";
import { createUser } from "@/lib/auth/users.ts";
import { jobRunner } from "@/lib/jobs/runner.ts";
import { SITEMAP_ROLL_JOB } from "@/lib/seo/sitemap_rolls.ts";
import { ANSWERS_PER_PAGE } from "@/lib/community/thread.ts";
import { createTestApp, jsonWrite, type TestApp, waitForJobs } from "../helpers/app.ts";
import { seedFinishedDebate } from "../helpers/debates.ts";
import { startFakeLlm } from "../helpers/fake_llm.ts";
import { checkStructuredData } from "../helpers/structured_data.ts";
import { QA_PAGE_PRESET } from "../helpers/qa_page_preset.ts";
import { parseSse } from "../helpers/sse.ts";
import {
  answer,
  ask,
  getAs,
  json,
  type Member,
  member,
  postAs,
  vote,
} from "../helpers/community.ts";

const ORIGIN = "https://parley.example";
const parser = new XMLParser({ isArray: (name) => name === "url" || name === "sitemap" });

interface World {
  t: TestApp;
  asker: Member;
  privateMember: Member;
  liveIds: string[];
  hiddenQid: string;
  deletedQid: string;
  /** Public debates: one written before the public index existed, one since. */
  publicDebates: string[];
  privateDebate: string;
}

/** A finished debate of `userId`; `legacy`: written as before `debates_by_time` existed. */
const seedDebate = (t: TestApp, userId: string, topic: string, legacy = false) =>
  seedFinishedDebate(t.kv, userId, topic, { legacy });

/** One pass of the job runner (the sitemap rolls, the debate index backfill), to its end. */
async function runJobs(t: TestApp): Promise<void> {
  const taken = await jobRunner(t.kv).pass();
  assert.ok(taken.includes(`${SITEMAP_ROLL_JOB}/main`), String(taken));
  await waitForJobs();
}

async function world(): Promise<World> {
  const t = await createTestApp({ env: { APP_ORIGIN: ORIGIN } });
  const [asker, mod, privateMember] = await Promise.all(
    ["Asker", "Mo", "Quiet"].map((n) => member(t, n)),
  );
  t.services.config.moderators = [mod.id];
  await saveSettings(t.kv, privateMember.id, { activityVisibility: "private" });
  const liveIds = [
    await ask(t, asker, { title: "How do I water ferns", tags: ["garden"] }),
    await ask(t, asker, { title: "Which soil suits cactus", tags: ["garden", "soil"] }),
  ];
  const hiddenQid = await ask(t, asker, { title: "A question moderators hid", tags: ["garden"] });
  const hide = await postAs(t, mod, "/api/mod/actions", {
    targetType: "question",
    targetId: hiddenQid,
    action: "hide",
  });
  assert.equal(hide.status, 200, await hide.text());
  const deletedQid = await ask(t, asker, { title: "A question its author deleted" });
  const del = await t.request(`/api/questions/${deletedQid}`, {
    method: "DELETE",
    headers: { cookie: asker.cookie, origin: ORIGIN },
  });
  assert.equal(del.status, 200, await del.text());
  await saveSettings(t.kv, privateMember.id, { debateArchive: "private" });
  const publicDebates = [
    await seedDebate(t, asker.id, "Should ferns live indoors?", true),
    await seedDebate(t, asker.id, "Is peat bad for gardens?"),
  ];
  const privateDebate = await seedDebate(t, privateMember.id, "A debate kept private");
  await runJobs(t);
  return { t, asker, privateMember, liveIds, hiddenQid, deletedQid, publicDebates, privateDebate };
}

/** The path of an absolute URL on the app's origin. */
function pathOf(loc: string): string {
  const u = new URL(loc);
  assert.equal(u.origin, ORIGIN, loc);
  return u.pathname + u.search;
}

Deno.test("robots.txt disallows the API, settings, moderation and sign-in pages and names the sitemap", async () => {
  const t = await createTestApp({ env: { APP_ORIGIN: ORIGIN } });
  try {
    const res = await t.request("/robots.txt");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    const lines = (await res.text()).split("\n");
    for (const p of ["/api/", "/profile", "/mod", "/signin", "/local-oauth/"]) {
      assert.ok(lines.includes(`Disallow: ${p}`), p);
    }
    assert.ok(lines.includes(`Sitemap: ${ORIGIN}/sitemap.xml`));
  } finally {
    await t.close();
  }
});

Deno.test("the sitemap index and its pages parse, every URL answers 200 with a lastmod, and nothing hidden, deleted or private is listed", async () => {
  const w = await world();
  try {
    const indexRes = await w.t.request("/sitemap.xml");
    assert.equal(indexRes.status, 200);
    assert.match(indexRes.headers.get("content-type") ?? "", /xml/);
    const index = parser.parse(await indexRes.text());
    const sitemaps: { loc: string }[] = index.sitemapindex.sitemap;
    assert.ok(sitemaps.length >= 3);
    const listed: { loc: string; lastmod: string }[] = [];
    for (const s of sitemaps) {
      const res = await w.t.request(pathOf(s.loc));
      assert.equal(res.status, 200, s.loc);
      const doc = parser.parse(await res.text());
      assert.ok(doc.urlset, s.loc);
      listed.push(...(doc.urlset.url ?? []));
    }
    for (const u of listed) {
      assert.ok(!Number.isNaN(Date.parse(u.lastmod)), `${u.loc} lastmod ${u.lastmod}`);
      const res = await w.t.request(pathOf(u.loc));
      await res.body?.cancel();
      assert.equal(res.status, 200, u.loc);
    }
    const locs = listed.map((u) => u.loc);
    for (const id of w.liveIds) assert.ok(locs.includes(`${ORIGIN}/questions/${id}`), id);
    assert.ok(!locs.some((l) => l.includes(w.hiddenQid)), "hidden question listed");
    assert.ok(!locs.some((l) => l.includes(w.deletedQid)), "deleted question listed");
    assert.ok(locs.includes(`${ORIGIN}/u/${w.asker.id}`));
    assert.ok(!locs.some((l) => l.includes(w.privateMember.id)), "private profile listed");
    assert.ok(locs.includes(`${ORIGIN}/?tag=garden`));
    assert.ok(locs.includes(`${ORIGIN}/?tag=soil`));
    assert.ok(sitemaps.some((s) => s.loc === `${ORIGIN}/sitemaps/debates/1.xml`));
    for (const id of w.publicDebates) assert.ok(locs.includes(`${ORIGIN}/debates/${id}`), id);
    assert.ok(!locs.some((l) => l.includes(w.privateDebate)), "private debate listed");
  } finally {
    await w.t.close();
  }
});

Deno.test("tag and profile sitemaps page past 1,000 like the questions': the index names every page, none repeats a URL", async () => {
  const t = await createTestApp({ env: { APP_ORIGIN: ORIGIN, LIMIT_QUESTIONS_PER_HOUR: "0" } });
  try {
    const asker = await member(t, "Asker");
    // 201 questions of 5 new tags each: 1,005 tags; 1,000 more users: 1,001 profiles.
    for (let i = 0; i < 201; i++) {
      await ask(t, asker, {
        title: `Question number ${i}`,
        tags: [0, 1, 2, 3, 4].map((j) => `t${i}-${j}`),
      });
    }
    for (let i = 0; i < 1000; i++) {
      await createUser(t.kv, {
        provider: "provider_a",
        name: `U${i}`,
        image: null,
        bio: "",
        email: null,
      });
    }
    await runJobs(t);
    const index = parser.parse(await (await t.request("/sitemap.xml")).text());
    const named: string[] = index.sitemapindex.sitemap.map((s: { loc: string }) => s.loc);
    for (const kind of ["tags", "profiles"]) {
      assert.ok(named.includes(`${ORIGIN}/sitemaps/${kind}/2.xml`), kind);
      assert.ok(!named.includes(`${ORIGIN}/sitemaps/${kind}/3.xml`), kind);
      const locs: string[] = [];
      for (const p of [1, 2]) {
        const res = await t.request(`/sitemaps/${kind}/${p}.xml`);
        assert.equal(res.status, 200);
        locs.push(
          ...(parser.parse(await res.text()).urlset.url ?? []).map((u: { loc: string }) => u.loc),
        );
      }
      assert.equal(new Set(locs).size, locs.length, `${kind}: no URL twice`);
      assert.equal(locs.length, kind === "tags" ? 1005 : 1001, kind);
    }
    const page2 = parser.parse(await (await t.request("/sitemaps/tags/2.xml")).text());
    const sample: { loc: string } = page2.urlset.url[0];
    const res = await t.request(pathOf(sample.loc));
    await res.body?.cancel();
    assert.equal(res.status, 200, sample.loc);
  } finally {
    await t.close();
  }
});

Deno.test("sitemap pages past the end are empty and unknown kinds or pages answer 404", async () => {
  const t = await createTestApp({ env: { APP_ORIGIN: ORIGIN } });
  try {
    const past = parser.parse(await (await t.request("/sitemaps/questions/99.xml")).text());
    assert.equal(past.urlset.url, undefined);
    for (const p of ["/sitemaps/users/1.xml", "/sitemaps/questions/0.xml", "/sitemaps/tags/x"]) {
      const res = await t.request(p);
      await res.body?.cancel();
      assert.equal(res.status, 404, p);
    }
  } finally {
    await t.close();
  }
});

/** The head's tags of a page, read with an HTML parser. */
function headOf(html: string) {
  const { document } = parseHTML(html);
  const all = (selector: string) =>
    [...document.querySelectorAll(selector)].map((e) =>
      (e as unknown as { getAttribute(n: string): string | null }).getAttribute("content") ??
        (e as unknown as { getAttribute(n: string): string | null }).getAttribute("href") ?? ""
    );
  return {
    canonical: all('link[rel="canonical"]'),
    description: all('meta[name="description"]'),
    og: (p: string) => all(`meta[property="og:${p}"]`),
    twitter: (p: string) => all(`meta[name="twitter:${p}"]`),
    document,
  };
}

Deno.test("every page has one canonical link and one meta description; question, debate and profile pages carry OpenGraph and Twitter cards", async () => {
  const fake = startFakeLlm();
  const t = await createTestApp({ env: { ...fake.env, APP_ORIGIN: ORIGIN } });
  try {
    const asker = await member(t, "Asker");
    const qid = await ask(t, asker, {
      title: "How do I water ferns",
      description: "Mine wilt <b>every</b> summer.",
      tags: ["garden"],
    });
    const started = await t.request("/api/debate", {
      method: "POST",
      headers: jsonWrite(t, asker.cookie),
      body: JSON.stringify({ topic: "Tabs or spaces?", userProfile: { name: "Asker" } }),
    });
    const debateId = parseSse(await started.text())[0].data.id as string;
    const pages = [
      "/",
      "/?tag=garden&sort=hot",
      "/ask",
      "/debate",
      "/signin",
      "/docs/api",
      `/questions/${qid}`,
      `/u/${asker.id}`,
      `/debates/${debateId}`,
    ];
    for (const path of pages) {
      const res = await t.request(path);
      assert.equal(res.status, 200, path);
      const head = headOf(await res.text());
      assert.equal(head.canonical.length, 1, `${path}: canonical ${head.canonical}`);
      assert.ok(head.canonical[0].startsWith(`${ORIGIN}/`), head.canonical[0]);
      assert.equal(head.description.length, 1, `${path}: description ${head.description}`);
      assert.ok(head.description[0].length > 0 && head.description[0].length <= 160, path);
    }
    const tagged = headOf(await (await t.request("/?tag=garden&sort=hot&page=1")).text());
    assert.deepEqual(tagged.canonical, [`${ORIGIN}/?tag=garden`], "sort and page 1 dropped");
    const cards: [string, string, string][] = [
      [`/questions/${qid}`, "article", "How do I water ferns"],
      [`/debates/${debateId}`, "article", "Debate: Tabs or spaces?"],
      [`/u/${asker.id}`, "profile", "Asker on Parley"],
    ];
    for (const [path, type, title] of cards) {
      const head = headOf(await (await t.request(path)).text());
      assert.deepEqual(head.og("type"), [type], path);
      assert.deepEqual(head.og("title"), [title], path);
      assert.deepEqual(head.og("url"), [`${ORIGIN}${path}`], path);
      assert.deepEqual(head.og("description"), head.description, path);
      assert.deepEqual(head.twitter("card"), ["summary"], path);
      assert.deepEqual(head.twitter("title"), [title], path);
    }
    const question = headOf(await (await t.request(`/questions/${qid}`)).text());
    assert.equal(question.description[0], "Mine wilt every summer.");
    const plain = headOf(await (await t.request("/ask")).text());
    assert.deepEqual(plain.og("title"), [], "no cards on a form page");
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a question page served signed out carries QAPage JSON-LD that passes structured-data-testing-tool, escapes post text, leaves hidden answers out and labels AI-written answers; signed-in views carry none", async () => {
  const fake = startFakeLlm();
  const t = await createTestApp({
    env: { ...fake.env, APP_ORIGIN: ORIGIN, EXPERT_PANEL_PER_DAY: "50" },
  });
  try {
    const [asker, helper, spammer, mod] = await Promise.all(
      ["Asker", "Helper", "Spammer", "Mo"].map((n) => member(t, n)),
    );
    t.services.config.moderators = [mod.id];
    const qid = await ask(t, asker, {
      title: "Why does </script> break my page?",
      description: "Pasting `</script><b>` into a template ends the script early.",
      tags: ["html"],
    });
    const accepted = await answer(t, helper, qid, "Escape `<` as \\u003c inside the JSON.");
    const other = await answer(t, asker, qid, "Or move the data into a data attribute.");
    const spam = await answer(t, spammer, qid, "Zanzibarspam buy watches");
    assert.equal(
      (await postAs(t, mod, "/api/mod/actions", {
        targetType: "message",
        targetId: spam,
        action: "hide",
      })).status,
      200,
    );
    const acc = await postAs(t, asker, `/api/questions/${qid}/accept`, { messageId: accepted });
    assert.equal(acc.status, 200, await acc.text());
    await vote(t, helper, "question", qid, "up");
    await waitForJobs(undefined, "panel");
    const api = await json<
      { answerCount: number; messages: { id: string; authorType: string; replyTo?: string }[] }
    >(
      t.request(`/api/questions/${qid}`),
    );
    const experts = api.body.messages.filter((m) => m.authorType === "ai" && !m.replyTo);
    assert.ok(experts.length >= 1, "the panel answered");

    // Signed in, a page is private: no structured data at all (the spammer, who still sees
    // their hidden answer, has none to leak it through).
    const ldScripts = (html: string) =>
      parseHTML(html).document.querySelectorAll('script[type="application/ld+json"]').length;
    for (const who of [spammer, asker]) {
      const res = await getAs(t, who, `/questions/${qid}`);
      assert.equal(res.status, 200);
      assert.equal(ldScripts(await res.text()), 0);
    }
    {
      const res = await getAs(t, null, `/questions/${qid}`);
      assert.equal(res.status, 200);
      const html = await res.text();
      const { document } = parseHTML(html);
      const scripts = [...document.querySelectorAll('script[type="application/ld+json"]')];
      assert.equal(scripts.length, 1);
      const raw = (scripts[0] as unknown as { textContent: string }).textContent;
      assert.ok(!raw.includes("<"), "no raw < inside the script");
      const data = JSON.parse(raw);
      const result = await checkStructuredData(html);
      for (const rule of QA_PAGE_PRESET.tests) {
        // The tool runs a `[*]` rule once per instance, as `[0]` here (one QAPage).
        const path = rule.test.replace("QAPage[*]", "QAPage[0]");
        assert.ok(result.passed.includes(path), `${path} passed: ${JSON.stringify(result)}`);
      }
      assert.deepEqual(result.failed, []);

      const q = data.mainEntity;
      assert.equal(data["@type"], "QAPage");
      assert.equal(data.url, `${ORIGIN}/questions/${qid}`);
      assert.equal(q.name, "Why does </script> break my page?");
      // Every Answer listed counts, the AI panel's (labelled AI-written) too; the API's
      // answerCount counts people's answers only.
      assert.equal(q.answerCount, api.body.answerCount + experts.length, "the answers listed");
      assert.equal(q.upvoteCount, 1);
      assert.ok(!Number.isNaN(Date.parse(q.dateCreated)));
      assert.deepEqual(q.author, {
        "@type": "Person",
        name: "Asker",
        url: `${ORIGIN}/u/${asker.id}`,
      });
      assert.equal(
        q.acceptedAnswer.url,
        `${ORIGIN}/questions/${qid}?answer=${accepted}#${accepted}`,
      );
      assert.equal(q.acceptedAnswer.author.name, "Helper");
      const suggested = q.suggestedAnswer.map((a: { url: string }) => a.url.split("#")[1]);
      assert.deepEqual(
        suggested.sort(),
        [other, ...experts.map((m) => m.id)].sort(),
        "hidden answer left out",
      );
      assert.ok(!raw.includes("Zanzibarspam"));
      const ai = q.suggestedAnswer.find((a: { url: string }) => a.url.endsWith(experts[0].id));
      assert.equal(ai.author["@type"], "Organization");
      assert.match(ai.author.name, /AI expert/);
      assert.match(ai.creditText, /^AI-written/);
      const human = q.suggestedAnswer.find((a: { url: string }) => a.url.endsWith(other));
      assert.equal(human.creditText, undefined);
    }
    // The asker still sees their question once hidden, but it has no structured data.
    assert.equal(
      (await postAs(t, mod, "/api/mod/actions", {
        targetType: "question",
        targetId: qid,
        action: "hide",
      })).status,
      200,
    );
    const own = await (await getAs(t, asker, `/questions/${qid}`)).text();
    assert.match(own, /Why does/);
    assert.equal(ldScripts(own), 0);
    const signedOut = await getAs(t, null, `/questions/${qid}`);
    assert.equal(signedOut.status, 404, "hidden from everyone else");
  } finally {
    await t.close();
    await fake.close();
  }
});

/** The JSON-LD objects of a page. */
function jsonLdOf(html: string): Record<string, unknown>[] {
  const { document } = parseHTML(html);
  return [...document.querySelectorAll('script[type="application/ld+json"]')]
    .map((s) => JSON.parse((s as unknown as { textContent: string }).textContent));
}

Deno.test("QAPage answer texts keep their code, never empty; a question page without an answer has no QAPage", async () => {
  const t = await createTestApp({ env: { APP_ORIGIN: ORIGIN } });
  try {
    const [asker, helper] = await Promise.all([member(t, "Asker"), member(t, "Helper")]);
    const qid = await ask(t, asker, {
      title: "How do I open a KV store?",
      description:
        "I tried `Deno.openKv` and got nothing.\n\n```ts\nconst kv = Deno.openKv();\n```",
    });
    const code = "```ts\nconst kv = await Deno.openKv();\n```";
    const codeOnly = await answer(t, helper, qid, code);
    const inline = await answer(t, asker, qid, "Add `await` before `Deno.openKv()` and it works.");
    const acc = await postAs(t, asker, `/api/questions/${qid}/accept`, { messageId: codeOnly });
    assert.equal(acc.status, 200, await acc.text());
    const res = await getAs(t, null, `/questions/${qid}`);
    assert.equal(res.status, 200);
    const html = await res.text();
    const [data] = jsonLdOf(html);
    assert.equal(data["@type"], "QAPage");
    type Listed = { url: string; text: string };
    const q = data.mainEntity as {
      text: string;
      acceptedAnswer: Listed;
      suggestedAnswer: Listed[];
    };
    assert.match(q.text, /const kv = Deno\.openKv\(\);/, "the question's code is kept");
    assert.ok(q.acceptedAnswer.url.endsWith(`#${codeOnly}`));
    assert.equal(q.acceptedAnswer.text, code);
    assert.ok(q.suggestedAnswer[0].url.endsWith(`#${inline}`));
    assert.equal(q.suggestedAnswer[0].text, "Add `await` before `Deno.openKv()` and it works.");
    assert.deepEqual((await checkStructuredData(html)).failed, []);

    const other = await ask(t, asker, { title: "Nobody has answered this yet" });
    const unanswered = await (await getAs(t, null, `/questions/${other}`)).text();
    assert.deepEqual(jsonLdOf(unanswered), [], "no QAPage without an answer");
  } finally {
    await t.close();
  }
});

Deno.test("a QAPage's answer urls open the thread page holding each answer, past the first page too", async () => {
  const t = await createTestApp({ env: { APP_ORIGIN: ORIGIN, NEW_ACCOUNT_HOURS: "0" } });
  try {
    const [asker, helper] = await Promise.all([member(t, "Asker"), member(t, "Helper")]);
    const qid = await ask(t, asker, { title: "A thread of many answers" });
    for (let i = 0; i <= ANSWERS_PER_PAGE; i++) {
      await answer(t, i % 2 ? asker : helper, qid, `Answer number ${i}`);
    }
    const urls: string[] = [];
    for (const page of [1, 2]) {
      const html = await (await getAs(t, null, `/questions/${qid}?page=${page}`)).text();
      const [data] = jsonLdOf(html);
      const answers = (data.mainEntity as { suggestedAnswer: { url: string }[] }).suggestedAnswer;
      urls.push(...answers.map((a) => a.url));
    }
    assert.equal(urls.length, ANSWERS_PER_PAGE + 1);
    for (const url of urls) {
      const u = new URL(url);
      const id = decodeURIComponent(u.hash.slice(1));
      assert.equal(url, `${ORIGIN}/questions/${qid}?answer=${encodeURIComponent(id)}#${id}`);
      const html = await (await getAs(t, null, pathOf(url))).text();
      assert.ok(html.includes(`id="${id}"`), `${url} shows the answer`);
    }
  } finally {
    await t.close();
  }
});

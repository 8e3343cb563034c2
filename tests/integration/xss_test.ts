/**
 * XSS: every place user or model text is rendered, fed with script payloads. Each page
 * is scanned as markup: the only scripts are the build's boot module and JSON island
 * props, no tag carries an event-handler attribute, and no href/src is a script URL.
 */
import assert from "node:assert/strict";
import {
  appendMessage,
  completeDebate,
  createDebate,
  type DebateRecord,
} from "@/lib/debates/store.ts";
import { saveSettings } from "@/lib/profile/settings.ts";
import { createTestApp, jsonWrite, signInAs, type TestApp } from "../helpers/app.ts";
import { answer, ask, getAs, type Member, postAs } from "../helpers/community.ts";

const SCRIPT = "<script>alert(1)</script>";
const ATTR = '"><img src=x onerror=alert(1)>';
const CLOSE = "</script><script>alert(2)</script>";
const PAYLOAD = `${SCRIPT}${ATTR}${CLOSE}'-alert(3)-'`;

/** Problems in an HTML document that would let injected text run. */
export function unsafeMarkup(html: string): string[] {
  const problems: string[] = [];
  const tag = /<([a-zA-Z][\w-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/g;
  for (const m of html.matchAll(tag)) {
    const name = m[1].toLowerCase();
    const attrs: Record<string, string> = {};
    for (const a of m[2].matchAll(/\s([^\s=>/]+)(?:="([^"]*)")?/g)) {
      attrs[a[1].toLowerCase()] = (a[2] ?? "").replace(/&amp;/g, "&").replace(/&quot;/g, '"');
    }
    for (const [k, v] of Object.entries(attrs)) {
      if (k.startsWith("on")) problems.push(`handler ${k} on <${name}>`);
      if (
        ["href", "src", "action", "formaction", "srcset", "poster"].includes(k) &&
        /^\s*(javascript|vbscript|data:text\/html)/i.test(v)
      ) problems.push(`${k}=${v} on <${name}>`);
    }
    if (name === "script") {
      // The only executable script is the build's immutable boot module, by URL; JSON
      // (island props, a question's JSON-LD) is data.
      const ok = attrs.type === "application/json" || attrs.type === "application/ld+json" ||
        (attrs.type === "module" && /^\/_parley\/[A-Za-z0-9_-]+\/boot\.js$/.test(attrs.src ?? ""));
      if (!ok) problems.push(`script ${m[0]}`);
    }
    if (["iframe", "object", "embed", "base", "meta"].includes(name) && name !== "meta") {
      problems.push(`<${name}>`);
    }
  }
  // Nothing injected may close the JSON props or JSON-LD script early.
  const jsonScripts = /<script type="application\/(?:ld\+)?json"[^>]*>([\s\S]*?)<\/script>/g;
  for (const json of html.matchAll(jsonScripts)) {
    try {
      JSON.parse(json[1]);
    } catch {
      problems.push("island props or JSON-LD are not intact JSON");
    }
  }
  return problems;
}

async function assertSafePage(t: TestApp, who: Member | null, path: string) {
  const res = await getAs(t, who, path);
  assert.ok(res.status < 500, `${path}: ${res.status}`);
  if (res.status >= 300 && res.status < 400) {
    // Signed-out visitors are sent to sign in; the redirect stays on this site.
    assert.match(res.headers.get("location") ?? "", /^\/(?![/\\])/, path);
    return "";
  }
  const type = res.headers.get("content-type") ?? "";
  assert.match(type, /text\/html/, path);
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, /script-src 'self';/, `${path} has no strict CSP`);
  assert.doesNotMatch(csp, /unsafe-inline|nonce-/, path);
  assert.match(csp, /script-src-attr 'none'/, path);
  const html = await res.text();
  assert.deepEqual(unsafeMarkup(html), [], path);
  assert.doesNotMatch(html, /<script>alert|<img src=x onerror/i, path);
  return html;
}

Deno.test("the markup scanner catches what it is meant to catch", () => {
  assert.notDeepEqual(unsafeMarkup(`<p>${SCRIPT}</p>`), []);
  assert.notDeepEqual(unsafeMarkup(`<img src="x" onerror="alert(1)">`), []);
  assert.notDeepEqual(unsafeMarkup(`<a href="javascript:alert(1)">x</a>`), []);
  assert.notDeepEqual(
    unsafeMarkup(`<script type="application/json">{"a":"</script><b>"}</script>`),
    [],
  );
  assert.notDeepEqual(unsafeMarkup(`<script type="module">alert(1)</script>`), []);
  assert.notDeepEqual(unsafeMarkup(`<script type="module" src="https://evil.example/x.js">`), []);
  assert.deepEqual(
    unsafeMarkup(`<p>&lt;script&gt;</p><script type="module" src="/_parley/abc/boot.js"></script>`),
    [],
  );
});

Deno.test("xss: payloads in names, bios, questions, answers, tags, debates and query params stay text", async () => {
  const t = await createTestApp();
  try {
    // A provider name can carry anything: the display name defaults to it.
    const { user, cookie } = await signInAs(t, PAYLOAD);
    const evil: Member = { id: user.id, name: user.name, cookie };
    const bio = await t.request("/api/profile/me", {
      method: "PATCH",
      headers: jsonWrite(t, cookie),
      body: JSON.stringify({ bio: PAYLOAD.slice(0, 200) }),
    });
    assert.equal(bio.status, 200);
    for (
      const url of ["javascript:alert(1)", "data:text/html,<script>x</script>", " javascript:x"]
    ) {
      const bad = await t.request("/api/profile/me", {
        method: "PATCH",
        headers: jsonWrite(t, cookie),
        body: JSON.stringify({ avatarUrl: url, coverUrl: url }),
      });
      assert.equal(bad.status, 400, url);
    }
    await saveSettings(t.kv, user.id, {
      activityVisibility: "public",
      voteHistory: "public",
      debateArchive: "public",
    });

    const markdown = [
      PAYLOAD,
      "[link](javascript:alert(1)) [data](data:text/html,<script>x</script>)",
      '![img](javascript:alert(1)) ![img2](x" onerror="alert(1))',
      '<javascript:alert(1)> <a href="javascript:alert(1)">raw</a>',
      "[ref]: javascript:alert(1)\n\n[ref] [x](JaVaScRiPt:alert(1)) [y](&#106;avascript:alert(1))",
      "```html\n</script><script>alert(1)</script>\n```",
    ].join("\n\n");
    const qid = await ask(t, evil, {
      title: `${SCRIPT} title`,
      description: markdown,
      tags: [SCRIPT.slice(0, 30), ATTR.slice(0, 30)],
    });
    const mid = await answer(t, evil, qid, markdown);
    await answer(t, evil, qid, `${ATTR} reply`, mid);
    await postAs(t, evil, "/api/likes", { targetId: qid, targetType: "question" });
    await postAs(t, evil, "/api/favorites", { targetId: mid, targetType: "message" });

    const now = t.services.now();
    let record = {
      id: `debate_${now}_xss`,
      userId: user.id,
      topic: PAYLOAD,
      userProfile: { id: user.id, name: PAYLOAD, avatar: null, bio: PAYLOAD },
      opponentProfile: { id: "p", name: PAYLOAD, avatar: "", bio: PAYLOAD, title: PAYLOAD },
      status: "in_progress",
      synthesis: null,
      messageCount: 0,
      standIn: false,
      createdAt: now,
      updatedAt: now,
    } as DebateRecord;
    await createDebate(t.kv, record, { traits: [PAYLOAD], interests: [CLOSE], updatedAt: now });
    record = await appendMessage(t.kv, record, {
      role: "user",
      name: PAYLOAD,
      content: PAYLOAD,
      timestamp: now,
    }, now);
    await completeDebate(
      t.kv,
      record,
      {
        consensus: [PAYLOAD],
        disagreements: [PAYLOAD],
        winner: "user",
        winnerReason: PAYLOAD,
        conclusion: SCRIPT,
        recommendations: [PAYLOAD],
      },
      "model",
      now,
    );

    const q = encodeURIComponent(PAYLOAD);
    const pages = [
      "/",
      `/?q=${q}`,
      `/?tag=${encodeURIComponent(SCRIPT.slice(0, 30))}`,
      `/?sort=${q}&page=${q}`,
      `/questions/${qid}`,
      `/questions/${qid}?posted=${q}&asked=${q}`,
      `/u/${user.id}`,
      ...["answers", "likes", "favorites", "debates"].map((tab) => `/u/${user.id}?tab=${tab}`),
      "/profile",
      ...["answers", "likes", "favorites", "debates"].map((tab) => `/profile?tab=${tab}`),
      `/profile?bind=failed&reason=${q}&provider=${q}`,
      `/profile?bind=success&provider=${q}`,
      `/profile?unbind=failed&reason=${q}&provider=${q}`,
      `/?error=${q}`,
      `/signin?returnTo=${q}&error=${q}`,
      `/debates/${record.id}`,
      "/debate",
      "/ask",
      "/profile/agent-keys",
      "/docs/api",
      `/questions/${q}`,
      `/u/${q}`,
      `/${q}`,
    ];
    for (const path of pages) {
      await assertSafePage(t, evil, path);
      await assertSafePage(t, null, path);
    }
    // The payload really was rendered (as text), so the scan looked at it.
    const page = await (await getAs(t, null, `/questions/${qid}`)).text();
    assert.match(page, /&lt;script>alert\(1\)&lt;\/script> title/);
    const debate = await (await getAs(t, evil, "/debate")).text();
    assert.match(debate, /\\u003c\/script>/, "island props carry the payload, escaped");
  } finally {
    await t.close();
  }
});

Deno.test("xss: text endpoints and JSON errors never serve user input as HTML", async () => {
  const t = await createTestApp();
  try {
    const { cookie } = await signInAs(t, "Eve");
    const skill = await t.request("/skill.md");
    assert.match(skill.headers.get("content-type") ?? "", /^text\/markdown/);
    assert.equal(skill.headers.get("x-content-type-options"), "nosniff");
    // A validation error may echo input, but only as JSON (never sniffed as HTML).
    const res = await t.request("/api/questions", {
      method: "POST",
      headers: jsonWrite(t, cookie),
      body: JSON.stringify({ title: PAYLOAD.repeat(5), tags: [PAYLOAD] }),
    });
    assert.equal(res.status, 400);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    const notFound = await t.request(`/api/questions/${encodeURIComponent(PAYLOAD)}`);
    assert.equal(notFound.status, 404);
    assert.match(notFound.headers.get("content-type") ?? "", /^application\/json/);
  } finally {
    await t.close();
  }
});

/** HTTP basics through the real app: health, errors, headers, logging, theme, secret. */
import assert from "node:assert/strict";
import { createApp } from "@/lib/app.ts";
import { logSink } from "@/lib/http/log.ts";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { parseConfig } from "@/lib/config.ts";
import { resolveAppSecret } from "@/lib/auth/secret.ts";
import { openKv } from "@/lib/kv/open.ts";
import { createTestApp, jsonWrite, ROOT, signInAs } from "../helpers/app.ts";
import { readBuildInfo } from "@/lib/fresh/assets.ts";
import manifest from "@/manifest.gen.ts";

Deno.test("GET /healthz reads and writes KV and reports ok; 503 when KV is gone", async () => {
  const t = await createTestApp();
  const res = await t.request("/healthz");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.ok, true);
  assert.equal(body.kv, "ok");
  assert.equal(body.read, "ok");
  assert.equal(body.write, "ok");
  // The probe key was written (the time), not only read.
  assert.equal(typeof (await t.kv.get(["meta", "health"])).value, "number");
  t.kv.close();
  const originalError = console.error;
  console.error = () => {};
  try {
    const down = await t.request("/healthz");
    assert.equal(down.status, 503);
    const failed = await down.json();
    assert.deepEqual([failed.ok, failed.kv, failed.read], [false, "unavailable", "failed"]);
    assert.match(failed.error, /^KV read failed: /);
  } finally {
    console.error = originalError;
  }
});

Deno.test("the home page renders an empty state, then questions from KV", async () => {
  const t = await createTestApp();
  try {
    const empty = await (await t.request("/")).text();
    assert.match(empty, /No questions yet/);
    await createQuestion(t.kv, {
      title: "How do <b>tags</b> render?",
      tags: ["deno"],
      author: { id: "u1", name: "Ada", avatar: null },
      createdBy: "user",
    });
    const html = await (await t.request("/")).text();
    assert.match(html, /How do &lt;b>tags&lt;\/b> render\?/);
    assert.doesNotMatch(html, /No questions yet/);
    assert.deepEqual(await (await t.request("/api/feed")).json(), { total: 1 });
  } finally {
    await t.close();
  }
});

Deno.test("security headers: a strict CSP with no nonce and no 'unsafe-inline', the boot script a build file, frames denied", async () => {
  const t = await createTestApp();
  try {
    const member = await signInAs(t, "Ada");
    const created = await t.request("/api/questions", {
      method: "POST",
      headers: jsonWrite(t, member.cookie),
      body: JSON.stringify({ title: "Islands under a strict CSP?" }),
    });
    const { id } = await created.json();
    const res = await t.request(`/questions/${id}`);
    const csp = res.headers.get("content-security-policy") ?? "";
    assert.match(csp, /script-src 'self';/);
    assert.doesNotMatch(csp, /nonce-|unsafe-inline|unsafe-eval/);
    assert.match(csp, /script-src-attr 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.equal(res.headers.get("x-frame-options"), "DENY");
    assert.equal(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin");
    const html = await res.text();
    // Islands are on the page, booted by an immutable file of the build, no inline code.
    assert.match(html, /<parley-island data-island="VoteButtons"/);
    const boot = /<script type="module" src="(\/_parley\/[\w-]+\/boot\.js)"><\/script>/.exec(html);
    assert.ok(boot, "boot module by URL");
    assert.doesNotMatch(html, /<script type="module">/);
    assert.doesNotMatch(html, /\snonce=/);
    const file = await t.request(boot[1]);
    assert.equal(file.status, 200);
    assert.match(file.headers.get("cache-control") ?? "", /immutable/);
    await file.body?.cancel();
    // No inline event handlers anywhere in the markup.
    assert.doesNotMatch(html, /\son[a-z]+=/i);
    // Every response carries the same policy, so a cached page stays valid.
    const again = (await t.request(`/questions/${id}`)).headers.get("content-security-policy");
    assert.equal(again, csp);
  } finally {
    await t.close();
  }
});

Deno.test("errors: JSON on /api/*, HTML elsewhere, never a stack trace", async () => {
  const t = await createTestApp();
  try {
    const api = await t.request("/api/does-not-exist");
    assert.equal(api.status, 404);
    assert.match(api.headers.get("content-type") ?? "", /application\/json/);
    assert.deepEqual(await api.json(), { error: "Not found" });
    const page = await t.request("/does-not-exist");
    assert.equal(page.status, 404);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    assert.match(await page.text(), /Page not found/);
    const wrong = await t.request("/api/feed", { method: "DELETE" });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get("allow"), "GET, HEAD");
  } finally {
    await t.close();
  }
});

Deno.test("built assets are served immutable under the build id; others 404", async () => {
  const t = await createTestApp();
  try {
    const build = await readBuildInfo(`${ROOT}/.build`);
    const css = await t.request(`/_parley/${build.buildId}/s/styles.css`);
    assert.equal(css.status, 200);
    assert.equal(css.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.match(css.headers.get("content-type") ?? "", /text\/css/);
    await css.body?.cancel();
    const js = await t.request(`/_parley/${build.buildId}/client.js`);
    assert.match(js.headers.get("content-type") ?? "", /javascript/);
    await js.body?.cancel();
    assert.equal((await t.request(`/_parley/${build.buildId}/../build.json`)).status, 404);
    assert.equal((await t.request(`/_parley/nope/client.js`)).status, 404);
  } finally {
    await t.close();
  }
});

/** A real app whose request log goes to `lines` (the sink is restored afterwards). */
async function withLoggedApp(
  fn: (app: ReturnType<typeof createApp>, lines: string[]) => Promise<void>,
): Promise<void> {
  const config = parseConfig({ KV_PATH: ":memory:" });
  const kv = await openKv(":memory:");
  const lines: string[] = [];
  const original = logSink.write;
  logSink.write = (l) => lines.push(l);
  try {
    const secret = await resolveAppSecret(kv, config);
    const app = createApp({ kv, config, secret, now: Date.now }, {
      manifest,
      build: await readBuildInfo(`${ROOT}/.build`),
      buildDir: `${ROOT}/.build`,
    });
    await fn(app, lines);
  } finally {
    logSink.write = original;
    kv.close();
  }
}

Deno.test("one log line per request: method, path, status, ms — no query, no cookies", async () => {
  await withLoggedApp(async (app, lines) => {
    const res = await app.request("http://localhost:8000/healthz?code=SECRETCODE&state=S", {
      headers: { cookie: "parley_session=TOPSECRET", authorization: "Bearer agent_XYZ" },
    });
    await res.body?.cancel();
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^GET \/healthz 200 \d+\.\dms$/);
    assert.doesNotMatch(lines.join("\n"), /SECRETCODE|TOPSECRET|agent_XYZ/);
  });
});

Deno.test("a page-cache hit, answered before routing, is logged like any request: one line, no query", async () => {
  await withLoggedApp(async (app, lines) => {
    const url = "http://localhost:8000/?code=SECRETCODE";
    const miss = await app.request(url);
    assert.equal(miss.headers.get("x-parley-cache"), "miss");
    await miss.body?.cancel();
    const hit = await app.request(url, { headers: { "accept-encoding": "br" } });
    assert.equal(hit.headers.get("x-parley-cache"), "hit");
    await hit.body?.cancel();
    assert.equal(lines.length, 2);
    for (const line of lines) assert.match(line, /^GET \/ 200 \d+\.\dms$/);
    assert.doesNotMatch(lines.join("\n"), /SECRETCODE/);
  });
});

Deno.test("POST /theme stores the choice and returns to a same-origin path only", async () => {
  const t = await createTestApp();
  try {
    const origin = t.services.config.appOrigin;
    const form = (returnTo: string) =>
      t.request("/theme", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({ theme: "dark", returnTo }),
      });
    const ok = await form("/questions?x=1");
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.get("location"), "/questions?x=1");
    assert.match(ok.headers.get("set-cookie") ?? "", /^parley_theme=dark; Path=\//);
    assert.equal((await form("//evil.example/x")).headers.get("location"), "/");
    assert.equal((await form("https://evil.example/")).headers.get("location"), "/");
    const page = await t.request("/", { headers: { cookie: "parley_theme=dark" } });
    assert.match(await page.text(), /<html lang="en" data-theme="dark">/);
  } finally {
    await t.close();
  }
});

Deno.test("a cookie-authenticated write from another site is refused", async () => {
  const t = await createTestApp();
  try {
    const { cookie } = await signInAs(t, "Ada");
    const res = await t.request("/theme", {
      method: "POST",
      headers: { cookie, origin: "https://evil.example" },
      body: new URLSearchParams({ theme: "dark" }),
    });
    assert.equal(res.status, 403);
    const same = await t.request("/theme", {
      method: "POST",
      headers: { cookie, "sec-fetch-site": "same-origin" },
      body: new URLSearchParams({ theme: "dark" }),
    });
    assert.equal(same.status, 303);
  } finally {
    await t.close();
  }
});

Deno.test("local mode creates APP_SECRET once and keeps it in KV across restarts", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const config = parseConfig({ KV_PATH: `${dir}/a.kv` });
    const kv1 = await openKv(config.kvPath);
    const first = await resolveAppSecret(kv1, config);
    kv1.close();
    const kv2 = await openKv(config.kvPath);
    const second = await resolveAppSecret(kv2, config);
    kv2.close();
    assert.ok(first.length >= 32);
    assert.equal(first, second);
    const configured = parseConfig({ KV_PATH: ":memory:", APP_SECRET: "s".repeat(40) });
    const kv3 = await openKv(":memory:");
    assert.equal(await resolveAppSecret(kv3, configured), "s".repeat(40));
    kv3.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a bearer request is not a session: its cookie signs nobody in", async () => {
  const t = await createTestApp();
  try {
    const { cookie } = await signInAs(t, "Ada");
    const plain = await t.request("/api/auth/session", { headers: { cookie } });
    assert.equal(plain.status, 200);
    await plain.body?.cancel();
    const withBearer = await t.request("/api/auth/session", {
      headers: { cookie, authorization: "Bearer agent_whatever" },
    });
    assert.equal(withBearer.status, 401);
    await withBearer.body?.cancel();
    // A cross-site write that adds a bearer header gains no session either.
    const write = await t.request("/api/profile/me", {
      method: "PATCH",
      headers: {
        cookie,
        authorization: "Bearer agent_whatever",
        origin: "https://evil.example",
        "content-type": "application/json",
      },
      body: JSON.stringify({ bio: "pwned" }),
    });
    assert.equal(write.status, 401);
    await write.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("a typed /theme URL goes home and /favicon.ico points at the icon", async () => {
  const t = await createTestApp();
  try {
    const theme = await t.request("/theme");
    assert.equal(theme.status, 303);
    assert.equal(theme.headers.get("location"), "/");
    const icon = await t.request("/favicon.ico");
    assert.equal(icon.status, 301);
    const build = await readBuildInfo(`${ROOT}/.build`);
    assert.equal(icon.headers.get("location"), `/_parley/${build.buildId}/s/favicon.svg`);
  } finally {
    await t.close();
  }
});

Deno.test("the cached home feed shows a new question, answer and vote on the next load", async () => {
  const t = await createTestApp();
  try {
    const { cookie } = await signInAs(t, "Ada");
    const headers = {
      cookie,
      origin: t.services.config.appOrigin,
      "content-type": "application/json",
    };
    assert.match(await (await t.request("/")).text(), /No questions yet/);
    const res = await t.request("/api/questions", {
      method: "POST",
      headers,
      body: JSON.stringify({ title: "Fresh off the press?" }),
    });
    const { id } = await res.json();
    assert.match(await (await t.request("/")).text(), /Fresh off the press\?/);
    await t.request(`/api/questions/${id}/messages`, {
      method: "POST",
      headers,
      body: JSON.stringify({ content: "An answer" }),
    });
    // Someone else votes (one's own post cannot be voted on).
    const bob = await signInAs(t, "Bob");
    await t.request("/api/likes", {
      method: "POST",
      headers: { ...headers, cookie: bob.cookie },
      body: JSON.stringify({ targetId: id, targetType: "question" }),
    });
    const api = await (await t.request(`/api/questions?limit=1`)).json();
    assert.equal(api.questions[0].upvotes, 1);
    const html = await (await t.request("/")).text();
    assert.match(html, /<strong>1<\/strong> answer</);
    assert.match(html, /<strong>1<\/strong> vote</);
  } finally {
    await t.close();
  }
});

Deno.test("a path with %0a, %1b, %00 or U+2028 logs exactly one line with the characters escaped", async () => {
  await withLoggedApp(async (app, lines) => {
    const paths = [
      "/api/x%0aGET%20/forged%20200%201.0ms",
      "/x%1b[31mred%00nul%7f%c2%85%e2%80%a8end",
      "/raw%250a", // an encoded percent stays raw text (Hono keeps %25): harmless as it is
    ];
    for (const p of paths) {
      const res = await app.request(`http://localhost:8000${p}`);
      await res.body?.cancel();
    }
    assert.equal(lines.length, paths.length, "one line per request");
    for (const line of lines) {
      // deno-lint-ignore no-control-regex
      assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    }
    assert.match(lines[0], /^GET \/api\/x\\x0aGET \/forged 200 1\.0ms 404 \d+\.\dms$/);
    assert.match(lines[1], /^GET \/x\\x1b\[31mred\\x00nul\\x7f\\x85\\u2028end 404 /);
    assert.match(lines[2], /^GET \/raw%250a 404 /);
  });
});

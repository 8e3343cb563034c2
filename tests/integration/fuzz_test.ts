/**
 * Robustness fuzz over every route of the manifest: each method, with hostile route
 * params, junk bodies and junk query strings, as a signed-out visitor, a signed-in user
 * and an agent key. Bad input must never produce a 5xx, `/api/*` errors are JSON
 * `{error}`, and no body carries a stack trace. Bounded (a few thousand in-process
 * requests) so it runs in seconds.
 */
import assert from "node:assert/strict";
import { allowedMethods } from "@/lib/fresh/server.ts";
import { loadRouteModules } from "@/lib/fresh/routes.ts";
import manifest from "@/manifest.gen.ts";
import { readBuildInfo } from "@/lib/fresh/assets.ts";
import { createTestApp, ROOT, type TestApp } from "../helpers/app.ts";
import { agentKey, member } from "../helpers/community.ts";
import { type Owned, seedOwner } from "../helpers/seed.ts";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

interface Route {
  pattern: string;
  /** Methods the module answers. */
  methods: string[];
  /** One method it does not answer (its 405 is checked too), if any. */
  refused?: string;
}

/** The manifest's routes as URL patterns (`/api/questions/:id`), skipping `_` files. */
async function routes(): Promise<Route[]> {
  const out: Route[] = [];
  for (const [file, module] of Object.entries(await loadRouteModules(manifest.routes))) {
    const rel = file.replace(/^\.\/routes/, "").replace(/\.(tsx|ts)$/, "");
    if (rel.split("/").some((s) => s.startsWith("_"))) continue;
    const path = rel.replace(/\/index$/, "").replace(/\/\([^)]*\)/g, "")
      .replace(/\[\.\.\.([^\]]+)\]/g, ":$1*").replace(/\[([^\]]+)\]/g, ":$1");
    const allowed = allowedMethods(module);
    const refused = METHODS.find((m) => !allowed.includes(m));
    out.push({ pattern: path || "/", methods: allowed, refused });
  }
  return out;
}

/** Values for a route param, already in URL-path form. */
function paramValues(name: string, a: Owned): string[] {
  const hostile = [
    "x".repeat(3000),
    "..",
    "%2e%2e%2f%2e%2e",
    "%00",
    "%E0%A4%A",
    encodeURIComponent("ünïcødé-☃-𝕏"),
    encodeURIComponent("<script>alert(1)</script>"),
    encodeURIComponent('"><img src=x onerror=alert(1)>'),
    "__proto__",
    "constructor",
    "%20",
  ];
  const plausible: Record<string, string[]> = {
    id: [a.questionId, a.messageId, a.debateId, "q-missing"],
    userId: [a.owner.id, "u-missing"],
    provider: ["provider_a", "provider_b", "provider_c", "provider_z"],
  };
  return [...(plausible[name] ?? ["x"]), ...hostile];
}

/** Every concrete path for a pattern; params not in the list get a plausible value. */
function expand(pattern: string, a: Owned): string[] {
  const names = [...pattern.matchAll(/:([A-Za-z_]+)\*?/g)].map((m) => m[1]);
  if (names.length === 0) return [pattern];
  const first = (n: string) => paramValues(n, a)[0];
  const out: string[] = [];
  for (const name of names) {
    for (const v of paramValues(name, a)) {
      out.push(pattern.replace(/:([A-Za-z_]+)\*?/g, (_, n) => n === name ? v : first(n)));
    }
  }
  return out;
}

const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
const huge = "A".repeat(300_000);

/** Junk bodies with the content type they are sent with. */
function junkBodies(a: Owned): { body: string; type: string | null }[] {
  const json = "application/json";
  const wrongTypes = {
    title: 5,
    description: [],
    tags: "not-a-list",
    content: {},
    replyTo: 7,
    targetId: [a.questionId],
    targetType: 1,
    voteType: null,
    messageId: {},
    topic: { t: 1 },
    userProfile: "me",
    displayName: 42,
    avatarUrl: "javascript:alert(1)",
    coverUrl: false,
    bio: ["x"],
    name: { n: 1 },
    actor: "x",
    trigger: 9,
    forceAction: [],
    preferredQuestionId: {},
    activityVisibility: "everyone",
    aiAvatar: "yes",
    messages: "hi",
    model: 1,
    stream: "yes",
    __proto__: { admin: true },
  };
  const hostileStrings = Object.fromEntries(
    Object.keys(wrongTypes).map((k) => [k, "<script>alert(1)</script>\u0000%00\u202e" + k]),
  );
  return [
    { body: "{not json", type: json },
    { body: "", type: json },
    { body: "null", type: json },
    { body: "123", type: json },
    { body: '"str"', type: json },
    { body: "[]", type: json },
    { body: '[{"title":"Hello there"}]', type: json },
    { body: "{}", type: json },
    { body: JSON.stringify(wrongTypes), type: json },
    { body: JSON.stringify(hostileStrings), type: json },
    { body: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}', type: json },
    { body: JSON.stringify({ title: huge, content: huge, topic: huge }), type: json },
    { body: deep(20_000), type: json },
    { body: `{"userProfile":${deepObject(5_000)},"topic":${deepObject(5_000)}}`, type: json },
    { body: '\uFEFF{"title":"bom"}', type: json },
    { body: '{"title":"\\ud800"}', type: json },
    {
      body: "title=Hello&content=x&provider=provider_a",
      type: "application/x-www-form-urlencoded",
    },
    {
      body: "--x\r\nContent-Disposition: form-data; name=a\r\n\r\nb\r\n--x--",
      type: "multipart/form-data; boundary=x",
    },
    { body: "plain words", type: "text/plain" },
    { body: '{"title":"Typed wrong"}', type: null },
  ];
}

/** Junk query strings. */
function junkQueries(a: Owned): string[] {
  return [
    "?limit=-1&page=0&sort=%3Cscript%3E&q=%00&tag=..&type=zzz",
    "?limit=1e309&page=NaN&cursor=%E0%A4%A",
    "?limit=99999999999999999999&page=-5",
    "?limit=1&limit=2&page=1&page=x",
    `?q=${"%F0%9F%92%A9".repeat(500)}&tag=${"t".repeat(5000)}`,
    "?__proto__=1&constructor=x&toString=y",
    `?targetType=question&targetIds=${Array(250).fill(a.questionId).join(",")}`,
    `?targetType=message&targetIds=${"x".repeat(500)}`,
    "?type=likes&cursor=not-a-cursor",
    "?type=favorites&cursor=" + btoa('["x",1]'),
    `?id=${a.agentKeyId}&provider=provider_a`,
    "?returnTo=//evil.example&flow=bind&provider=provider_b",
    "?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E&bind=%22%3E%3Cimg&reason=x&provider=%3Cb%3E",
    "?code=x&state=y",
    "?" + "a=1&".repeat(2000),
  ];
}

interface Caller {
  label: string;
  headers: Record<string, string>;
}

interface Failure {
  what: string;
  problem: string;
}

const statusCounts = new Map<number, number>();
const STACK = /\bat [^\n]*\((?:file|ext|node):|\n\s+at \S|file:\/\/\//;

async function check(
  t: TestApp,
  failures: Failure[],
  method: string,
  path: string,
  caller: Caller,
  body?: { body: string; type: string | null },
) {
  const headers = new Headers(caller.headers);
  if (body?.type) headers.set("content-type", body.type);
  // Signing out would end Bob's session for the rest of the run (logout has its own tests).
  if (caller.label === "user" && path.startsWith("/api/auth/logout")) return;
  const what = `${caller.label} ${method} ${path.slice(0, 120)}${
    body ? ` body=${JSON.stringify(body.body.slice(0, 40))}` : ""
  }`;
  let res: Response;
  try {
    res = await t.request(path, {
      method,
      headers,
      body: body && method !== "GET" && method !== "HEAD" ? body.body : undefined,
    });
  } catch (err) {
    failures.push({ what, problem: `threw ${err}` });
    return;
  }
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("text/event-stream")) {
    await res.body?.cancel();
    return;
  }
  const text = await res.text();
  statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
  if (res.status >= 500) failures.push({ what, problem: `${res.status} ${text.slice(0, 200)}` });
  if (STACK.test(text)) failures.push({ what, problem: `stack trace: ${text.slice(0, 200)}` });
  if (
    type.startsWith("text/html") &&
    !/script-src-attr 'none'/.test(res.headers.get("content-security-policy") ?? "")
  ) {
    failures.push({ what, problem: "HTML without the CSP" });
  }
  const api = new URL(path, "http://x").pathname.startsWith("/api/");
  if (api && res.status >= 400 && method !== "HEAD") {
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch { /* checked below */ }
    const error = (parsed as { error?: unknown } | null)?.error;
    // The stand-in model speaks OpenAI's error shape: {error: {message, type}}.
    const ok = typeof error === "string" ||
      (path.startsWith("/api/local-llm/") && typeof error === "object" && error !== null);
    if (!ok || !type.includes("application/json")) {
      failures.push({ what, problem: `not JSON {error}: ${res.status} ${text.slice(0, 120)}` });
    }
  }
}

Deno.test({
  name:
    "fuzz: no route answers junk with a 5xx, a stack trace, a non-JSON API error, or HTML without CSP",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const t = await createTestApp();
    // Rate limits are tested elsewhere; here they would only hide deeper paths.
    t.services.agentRateLimit = 1_000_000;
    const errors: unknown[][] = [];
    const original = { error: console.error, warn: console.warn, log: console.log };
    console.error = (...args: unknown[]) => errors.push(args);
    console.warn = () => {};
    console.log = () => {};
    try {
      const a = await seedOwner(t, "Alice");
      const b = await member(t, "Bob");
      const bKey = await agentKey(t, b, "bob's agent");
      const origin = t.services.config.appOrigin;
      const callers: Caller[] = [
        { label: "anon", headers: { origin } },
        { label: "user", headers: { origin, cookie: b.cookie } },
        { label: "agent", headers: { authorization: `Bearer ${bKey}` } },
      ];
      const table = await routes();
      const failures: Failure[] = [];
      assert.ok(table.length > 40, `only ${table.length} routes found`);
      let requests = 0;

      // 1. Every path (hostile params included) × every method × every caller; writes
      // carry a well-formed body so that the params reach the domain code.
      const plausible = {
        body: JSON.stringify({ title: "Fuzzed title", content: "Fuzzed content", voteType: "up" }),
        type: "application/json",
      };
      for (const { pattern, methods, refused } of table) {
        for (const path of expand(pattern, a)) {
          for (const method of refused ? [...methods, refused] : methods) {
            for (const caller of callers) {
              await check(
                t,
                failures,
                method,
                path,
                caller,
                WRITES.has(method) ? plausible : undefined,
              );
              requests++;
            }
          }
        }
      }

      // Paths outside the manifest: built assets, health, traversal and bad encodings.
      const { buildId: build } = await readBuildInfo(`${ROOT}/.build`);
      for (
        const path of [
          `/_parley/${build}/%E0%A4%A`,
          `/_parley/${build}/..%2F..%2Fdeno.json`,
          "/_parley/..%2F/x",
          `/_parley/${"x".repeat(5000)}/a.js`,
          "/healthz/x",
          "/%00",
          "/..%2f..%2fetc%2fpasswd",
          "/api/%E0%A4%A",
          "/api",
        ]
      ) {
        for (const caller of callers) {
          await check(t, failures, "GET", path, caller);
          requests++;
        }
      }

      // 2. Junk bodies on every write method, with a plausible path.
      const bodies = junkBodies(a);
      for (const { pattern, methods } of table) {
        const path = expand(pattern, a)[0];
        for (const method of methods.filter((m) => WRITES.has(m))) {
          for (const caller of callers) {
            for (const body of bodies) {
              await check(t, failures, method, path, caller, body);
              requests++;
            }
          }
        }
      }

      // 3. Junk query strings on every GET (pages and API).
      const queries = junkQueries(a);
      for (const { pattern, methods } of table) {
        const path = expand(pattern, a)[0];
        for (const method of methods.filter((m) => m === "GET" || m === "DELETE")) {
          for (const caller of callers) {
            for (const q of queries) {
              await check(t, failures, method, path + q, caller);
              requests++;
            }
          }
        }
      }

      // Nothing of Alice's was touched by anyone else's junk.
      const keysRes = await t.request("/api/profile/agent-keys", {
        headers: { cookie: a.owner.cookie },
      });
      assert.equal(((await keysRes.json()) as { keys: unknown[] }).keys.length, 1);
      const me = await t.request("/api/agent/me", {
        headers: { authorization: `Bearer ${a.agentKey}` },
      });
      assert.equal(me.status, 200);

      // The junk reached validation, authentication, lookups and real writes.
      for (const status of [200, 201, 400, 401, 404, 405, 413]) {
        assert.ok(statusCounts.has(status), `no ${status} seen`);
      }
      const unique = [...new Map(failures.map((f) => [f.what + f.problem, f])).values()];
      assert.equal(
        unique.length,
        0,
        `${unique.length} failures in ${requests} requests:\n` +
          unique.slice(0, 40).map((f) => `${f.what}\n    → ${f.problem}`).join("\n"),
      );
      assert.ok(requests > 2000, `only ${requests} requests`);
    } finally {
      Object.assign(console, original);
      await t.close();
    }
    const unhandled = errors.filter((e) => String(e[0]).startsWith("Unhandled error"));
    assert.equal(unhandled.length, 0, unhandled.map((e) => e.join(" ")).join("\n"));
  },
});

/**
 * Ids are checked once, by the router: every route with a path parameter answers 404 to an
 * id too long for a KV key or holding characters no id has, whatever the method, before a
 * handler runs (an over-long id used to reach a KV key and answer 500). A `[tag]` is no id:
 * it takes any tag a question may carry, and answers 404 only past the tag length.
 */
import assert from "node:assert/strict";
import { allowedMethods } from "@/lib/fresh/server.ts";
import { loadRouteModules } from "@/lib/fresh/routes.ts";
import manifest from "@/manifest.gen.ts";
import { createTestApp, jsonWrite } from "../helpers/app.ts";
import { ask, member } from "../helpers/community.ts";

/** Every manifest route with a `[param]`, as a URL pattern with the methods it answers. */
async function routesWithParams(): Promise<{ pattern: string; methods: string[] }[]> {
  const out: { pattern: string; methods: string[] }[] = [];
  for (const [file, module] of Object.entries(await loadRouteModules(manifest.routes))) {
    const rel = file.replace(/^\.\/routes/, "").replace(/\.(tsx|ts)$/, "");
    if (rel.split("/").some((s) => s.startsWith("_"))) continue;
    if (!/\[[A-Za-z_]+\]/.test(rel)) continue;
    const pattern = rel.replace(/\/index$/, "").replace(/\/\([^)]*\)/g, "")
      .replace(/\[([A-Za-z_]+)\]/g, ":$1");
    out.push({ pattern, methods: allowedMethods(module) });
  }
  return out;
}

/** Ids no route may accept, in URL-path form; the first {@link OVER_LONG} are too long. */
const BAD_IDS = [
  "x".repeat(2100),
  "q-" + "a".repeat(2050),
  encodeURIComponent("<img src=x onerror=alert(1)>"),
  "a%20b",
  "%00",
  "%E2%80%AEq-1", // right-to-left override
  "q%E2%80%8B1", // zero-width space
  encodeURIComponent("ünïcødé"),
  "%E0%A4%A", // a malformed escape
  "q%2F1",
];
const OVER_LONG = 2;

/** Parameters that are not ids (lib/app.ts): only the over-long values are refused there. */
const NOT_IDS = new Set(["tag"]);

Deno.test("every route with a path parameter answers 404 to an over-long or ill-formed id, for every method", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const routes = await routesWithParams();
    assert.ok(routes.length >= 20, `only ${routes.length} routes with params found`);
    assert.ok(routes.some((r) => r.pattern === "/api/questions/:id/invite"));
    assert.ok(routes.some((r) => r.pattern === "/api/profile/public/:userId/activity"));
    const failures: string[] = [];
    let checked = 0;
    for (const { pattern, methods } of routes) {
      const names = [...pattern.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
      for (const name of names) {
        for (const bad of NOT_IDS.has(name) ? BAD_IDS.slice(0, OVER_LONG) : BAD_IDS) {
          const path = pattern.replace(/:([A-Za-z_]+)/g, (_, n) => n === name ? bad : "x1");
          for (const method of methods) {
            const write = !["GET", "HEAD", "OPTIONS"].includes(method);
            const res = await t.request(path, {
              method,
              headers: write ? jsonWrite(t, ada.cookie) : { cookie: ada.cookie },
              body: write ? JSON.stringify({ expertId: "skeptic", content: "hi" }) : undefined,
            });
            await res.body?.cancel();
            checked++;
            if (res.status !== 404) {
              failures.push(`${method} ${path.slice(0, 80)} → ${res.status}`);
            }
          }
        }
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(checked > 300, `${checked} requests`);
  } finally {
    await t.close();
  }
});

Deno.test("the reported over-long ids are a JSON 404, while a well-formed id still reaches its handler", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const id = await ask(t, ada, { title: "Where do over-long ids go?" });
    const long = "q".repeat(2100);
    const invite = await t.request(`/api/questions/${long}/invite`, {
      method: "POST",
      headers: jsonWrite(t, ada.cookie),
      body: JSON.stringify({ expertId: "skeptic" }),
    });
    assert.equal(invite.status, 404);
    assert.deepEqual(await invite.json(), { error: "Not found" });
    const activity = await t.request(`/api/profile/public/${long}/activity`);
    assert.equal(activity.status, 404);
    assert.deepEqual(await activity.json(), { error: "Not found" });
    const page = await t.request(`/questions/${long}`);
    assert.equal(page.status, 404);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    await page.body?.cancel();
    // Well-formed ids pass the router and the handlers decide.
    const found = await t.request(`/api/questions/${id}`);
    assert.equal(found.status, 200);
    assert.equal((await found.json()).id, id);
    const profile = await t.request(`/api/profile/public/${ada.id}/activity?type=questions`);
    assert.equal(profile.status, 200);
    await profile.body?.cancel();
  } finally {
    await t.close();
  }
});

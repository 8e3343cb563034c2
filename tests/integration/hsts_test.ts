/**
 * On an https origin every response carries `Strict-Transport-Security` (two years,
 * subdomains included): pages, page-cache hits, JSON, errors, health, assets and live
 * streams alike. On plain http it is absent (a browser ignores it there anyway).
 */
import assert from "node:assert/strict";
import { readBuildInfo } from "@/lib/fresh/assets.ts";
import { createTestApp, jsonWrite, ROOT, type TestApp } from "../helpers/app.ts";
import { ask, member } from "../helpers/community.ts";

const EXPECTED = "max-age=63072000; includeSubDomains";

/** One request of each kind the app answers, labelled. */
async function everyKind(t: TestApp): Promise<[string, Response][]> {
  const ada = await member(t, "Ada");
  const id = await ask(t, ada, { title: "Is HSTS on every response?" });
  const build = await readBuildInfo(`${ROOT}/.build`);
  const out: [string, Response][] = [];
  const add = async (label: string, path: string, init?: RequestInit) => {
    out.push([label, await t.request(path, init)]);
  };
  await add("home page", "/");
  await add("home page from the page cache", "/");
  await add("question page signed in", `/questions/${id}`, { headers: { cookie: ada.cookie } });
  await add("API JSON", `/api/questions/${id}`);
  await add("API 404", "/api/questions/q-missing");
  await add("page 404", "/no/such/page");
  await add("router 404 for an ill-formed id", `/api/questions/${"x".repeat(2100)}`);
  await add("405", "/api/experts", { method: "DELETE", headers: jsonWrite(t, ada.cookie) });
  await add("400", "/api/questions", {
    method: "POST",
    headers: jsonWrite(t, ada.cookie),
    body: "{not json",
  });
  await add("403 cross-site", "/api/questions", {
    method: "POST",
    headers: { cookie: ada.cookie, origin: "https://evil.example" },
    body: "{}",
  });
  await add("health", "/healthz");
  await add("build asset", `/_parley/${build.buildId}/${build.client}`);
  await add("live stream", `/api/questions/${id}/events`);
  return out;
}

Deno.test("on an https origin every response carries Strict-Transport-Security for two years with subdomains", async () => {
  const t = await createTestApp({ env: { APP_ORIGIN: "https://parley.example" } });
  try {
    const responses = await everyKind(t);
    assert.ok(responses.length >= 13);
    for (const [label, res] of responses) {
      await res.body?.cancel();
      assert.equal(res.headers.get("strict-transport-security"), EXPECTED, label);
    }
    // The kinds really differ: the set of statuses proves errors were among them.
    const statuses = new Set(responses.map(([, r]) => r.status));
    for (const s of [200, 400, 403, 404, 405]) assert.ok(statuses.has(s), `no ${s}`);
  } finally {
    await t.close();
  }
});

Deno.test("on a plain http origin no response carries Strict-Transport-Security", async () => {
  const t = await createTestApp({ env: { APP_ORIGIN: "http://localhost:8000" } });
  try {
    for (const [label, res] of await everyKind(t)) {
      await res.body?.cancel();
      assert.equal(res.headers.get("strict-transport-security"), null, label);
    }
  } finally {
    await t.close();
  }
});

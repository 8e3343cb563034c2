/**
 * A refused input names the field and the place it came from: query parameters by their
 * name (never "(body)"), body fields by their path; fixed messages stay as docs/interface.md#errors pins them.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";
import { getAs, json, member } from "../helpers/community.ts";

type Refusal = { error: string; issues?: { path: string; message: string }[] };

Deno.test("query errors name the parameter: questions, favorites, activity", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const paths = async (who: typeof ada | null, url: string) => {
      const r = await json<Refusal>(getAs(t, who, url));
      assert.equal(r.status, 400, url);
      return r.body.issues?.map((i) => i.path);
    };
    assert.deepEqual(await paths(null, "/api/questions?sort=old"), ["sort"]);
    assert.deepEqual(await paths(ada, "/api/favorites?targetType=thing&targetIds=a"), [
      "targetType",
    ]);
    assert.deepEqual(await paths(ada, "/api/profile/activity?type=questions&limit=0"), ["limit"]);
    assert.deepEqual(
      await paths(null, `/api/profile/public/${ada.id}/activity?type=posts`),
      ["type"],
    );
  } finally {
    await t.close();
  }
});

Deno.test("DELETE /api/profile/identities with a bad provider: the same 400 body as ever", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const expected = {
      error: "provider must be provider_a, provider_b or provider_c",
      issues: [{ path: "provider", message: "expected provider_a, provider_b or provider_c" }],
    };
    for (const q of ["?provider=nope", ""]) {
      const r = await json<Refusal>(t.request(`/api/profile/identities${q}`, {
        method: "DELETE",
        headers: { cookie: ada.cookie, origin: t.services.config.appOrigin },
      }));
      assert.deepEqual([r.status, r.body], [400, expected], q);
    }
  } finally {
    await t.close();
  }
});

Deno.test("a bad page link opened in a browser is an HTML page with the reason; a script still gets JSON", async () => {
  const t = await createTestApp();
  try {
    const html = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
    const page = await t.request("/debates?cursor=bad", { headers: html });
    assert.equal(page.status, 400);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    const text = await page.text();
    assert.match(text, /<h1>This link is not valid<\/h1>/);
    assert.match(text, /That page link is not valid\./);
    assert.match(text, /<title>This link is not valid · Parley<\/title>/);
    // Not asking for HTML: the JSON error as before.
    const script = await json<Refusal>(t.request("/debates?cursor=bad"));
    assert.deepEqual([script.status, script.body], [400, {
      error: "That page link is not valid.",
    }]);
  } finally {
    await t.close();
  }
});

/** The root middleware's refusal of cross-site cookie writes, answered the same everywhere. */
import assert from "node:assert/strict";
import { createTestApp, signInAs } from "../helpers/app.ts";

Deno.test("root middleware: a cross-site cookie write gets the same JSON 403 on pages and the API", async () => {
  const t = await createTestApp();
  try {
    const { cookie } = await signInAs(t, "Ada");
    for (
      const [path, type, body] of [
        ["/ask", "application/x-www-form-urlencoded", "title=Forged+question"],
        ["/api/questions", "application/json", JSON.stringify({ title: "Forged question" })],
      ]
    ) {
      const res = await t.request(path, {
        method: "POST",
        headers: { cookie, origin: "https://evil.example", "content-type": type },
        body,
      });
      assert.equal(res.status, 403, path);
      assert.equal(res.headers.get("content-type"), "application/json", path);
      assert.equal(res.headers.get("set-cookie"), null, path);
      assert.deepEqual(await res.json(), { error: "Cross-site request refused" }, path);
    }
  } finally {
    await t.close();
  }
});

Deno.test("signed-in pages carry Cache-Control: private, no-store (no stale copy on Back); signed-out pages stay cacheable", async () => {
  const t = await createTestApp();
  try {
    const ada = await signInAs(t, "Ada");
    const created = await t.request("/api/questions", {
      method: "POST",
      headers: {
        cookie: ada.cookie,
        origin: t.services.config.appOrigin,
        "content-type": "application/json",
      },
      body: JSON.stringify({ title: "Does Back show my answer?" }),
    });
    const { id } = await created.json();
    const pages = ["/", `/questions/${id}`, `/questions/${id}?asked=1`, "/ask", "/profile"];
    for (const path of [...pages, `/u/${ada.user.id}`, "/debate", "/notifications"]) {
      const res = await t.request(path, { headers: { cookie: ada.cookie } });
      assert.equal(res.status, 200, path);
      // "private, no-store" unless the page set its own no-store (/profile).
      assert.match(res.headers.get("cache-control") ?? "", /^(private, )?no-store$/, path);
      await res.body?.cancel();
    }
    // Signed out, the same pages come from the shared page cache: no such header.
    for (const path of ["/", `/questions/${id}`]) {
      const res = await t.request(path);
      assert.equal(res.status, 200, path);
      assert.doesNotMatch(res.headers.get("cache-control") ?? "", /no-store/, path);
      await res.body?.cancel();
    }
    // JSON and static files keep their own rules.
    const api = await t.request(`/api/questions/${id}`, { headers: { cookie: ada.cookie } });
    assert.equal(api.headers.get("cache-control"), null);
    await api.body?.cancel();
  } finally {
    await t.close();
  }
});

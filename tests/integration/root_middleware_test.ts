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

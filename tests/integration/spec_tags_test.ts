/**
 * docs/interface.md#question-fields's tag rule on every path that takes tags (agent ask, people ask, question edit):
 * any number of tags is accepted; each is trimmed, empty ones dropped, repeats dropped
 * (case-insensitively, tags being lower case), and only then the first 5 kept. The OpenAPI
 * document and /skill.md say so.
 *
 * Ignored until the content-lifecycle branch (tag normalization) lands: un-ignore at merge.
 */
import assert from "node:assert/strict";
import { createTestApp, jsonWrite } from "../helpers/app.ts";
import { agentCall, agentKey, getAs, json, member, postAs } from "../helpers/community.ts";

const SIXTY = Array.from({ length: 60 }, (_, i) => `tag${i}`);
const MESSY = ["  Deno ", "", "   ", "deno", "DENO", "kv", "kv", "Fresh", "a", "b", "c"];
/** MESSY after trim, drop empties, de-duplicate, then the first five. */
const MESSY_KEPT = ["deno", "kv", "fresh", "a", "b"];

async function tagsOf(t: Awaited<ReturnType<typeof createTestApp>>, id: string) {
  return (await json<{ tags: string[] }>(getAs(t, null, `/api/questions/${id}`))).body.tags;
}

Deno.test({
  name: "POST /api/agent/questions accepts 60 tags and keeps the first five",
  async fn() {
    const t = await createTestApp();
    try {
      const key = await agentKey(t, await member(t, "Ada"));
      const res = await json<{ id: string }>(
        agentCall(t, key, "/api/agent/questions", { body: { title: "Sixty tags", tags: SIXTY } }),
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      // docs/interface.md#question-fields's agent create answers {id, title, createdAt} only: read the tags back.
      assert.deepEqual(await tagsOf(t, res.body.id), SIXTY.slice(0, 5));
      const messy = await json<{ id: string }>(
        agentCall(t, key, "/api/agent/questions", { body: { title: "Messy tags", tags: MESSY } }),
      );
      assert.equal(messy.status, 201);
      assert.deepEqual(await tagsOf(t, messy.body.id), MESSY_KEPT);
    } finally {
      await t.close();
    }
  },
});

Deno.test({
  name: "POST /api/questions accepts 60 tags; repeats are dropped before the first five are kept",
  async fn() {
    const t = await createTestApp();
    try {
      const ada = await member(t, "Ada");
      const many = await json<{ id: string }>(
        postAs(t, ada, "/api/questions", { title: "Sixty tags", tags: SIXTY }),
      );
      assert.equal(many.status, 201, JSON.stringify(many.body));
      assert.deepEqual(await tagsOf(t, many.body.id), SIXTY.slice(0, 5));
      const messy = await json<{ id: string }>(
        postAs(t, ada, "/api/questions", { title: "Messy tags", tags: MESSY }),
      );
      assert.equal(messy.status, 201);
      assert.deepEqual(await tagsOf(t, messy.body.id), MESSY_KEPT);
      const dup = await json<{ id: string }>(
        postAs(t, ada, "/api/questions", {
          title: "Dups",
          tags: ["a", "a", "b", "c", "d", "e", "f"],
        }),
      );
      assert.deepEqual(await tagsOf(t, dup.body.id), ["a", "b", "c", "d", "e"]);
    } finally {
      await t.close();
    }
  },
});

Deno.test({
  name: "PATCH /api/questions/:id applies the same tag rule (60 tags, repeats, empties)",
  async fn() {
    const t = await createTestApp();
    try {
      const ada = await member(t, "Ada");
      const q = await json<{ id: string }>(postAs(t, ada, "/api/questions", { title: "Edit me" }));
      const edit = (tags: string[]) =>
        t.request(`/api/questions/${q.body.id}`, {
          method: "PATCH",
          headers: jsonWrite(t, ada.cookie),
          body: JSON.stringify({ tags }),
        });
      const many = await edit(SIXTY);
      assert.equal(many.status, 200, await many.text());
      assert.deepEqual(await tagsOf(t, q.body.id), SIXTY.slice(0, 5));
      assert.equal((await edit(MESSY)).status, 200);
      assert.deepEqual(await tagsOf(t, q.body.id), MESSY_KEPT);
    } finally {
      await t.close();
    }
  },
});

Deno.test({
  name: "the OpenAPI document and /skill.md say tags are de-duplicated and the first five kept",
  async fn() {
    const t = await createTestApp();
    try {
      const doc = await (await t.request("/api/openapi.json")).text();
      assert.match(doc, /repeats dropped|de-duplicated|duplicates? (are )?dropped/i);
      assert.doesNotMatch(doc, /at most 50 tags/);
      const skill = await (await t.request("/skill.md")).text();
      assert.match(skill, /repeat|duplicate/i);
      assert.match(skill, /first 5|first five/i);
    } finally {
      await t.close();
    }
  },
});

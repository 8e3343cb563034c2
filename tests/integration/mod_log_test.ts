/**
 * The moderation log's pages (docs/interface.md#moderation): 30 a page, a next cursor only
 * when there is more, and a cursor the log did not give answered 400, not as its end.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";
import { answer, ask, getAs, json, member, postAs } from "../helpers/community.ts";

type LogPage = { entries: { action: string }[]; nextCursor: string | null };

Deno.test("mod log: 30 a page, a cursor only when more follow, a made-up cursor is 400", async () => {
  const t = await createTestApp({ env: { NEW_ACCOUNT_HOURS: "0" } });
  try {
    const [asker, helper, mod] = await Promise.all(
      ["Asker", "Helper", "Mo"].map((n) => member(t, n)),
    );
    t.services.config.moderators = [mod.id];
    const qid = await ask(t, asker, { title: "How long is the moderation log?" });
    const mid = await answer(t, helper, qid, "Long enough to page through.");
    const act = async (i: number) => {
      const action = i % 2 === 0 ? "hide" : "restore";
      const r = await postAs(t, mod, "/api/mod/actions", {
        targetType: "message",
        targetId: mid,
        action,
      });
      assert.equal(r.status, 200, await r.text());
    };
    const log = (cursor?: string) =>
      json<LogPage>(
        getAs(t, mod, `/api/mod/log${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`),
      );

    for (let i = 0; i < 30; i++) await act(i);
    const full = (await log()).body;
    assert.equal(full.entries.length, 30);
    assert.equal(full.nextCursor, null, "exactly one page: no cursor to an empty page");

    await act(30);
    const first = (await log()).body;
    assert.equal(first.entries.length, 30);
    assert.ok(first.nextCursor);
    const second = (await log(first.nextCursor)).body;
    assert.deepEqual(second.entries.map((e) => e.action), ["hide"], "the oldest, the first hide");
    assert.equal(second.nextCursor, null);

    for (const bad of ["garbage", "!!", "x".repeat(2000)]) {
      const r = await log(bad);
      assert.equal(r.status, 400, bad.slice(0, 20));
    }
  } finally {
    await t.close();
  }
});

Deno.test("moderation: a deleted post is 409 to every action, saying a deletion is final; an unknown one is 404", async () => {
  const t = await createTestApp({ env: { NEW_ACCOUNT_HOURS: "0" } });
  try {
    const [asker, helper, mod] = await Promise.all(
      ["Asker", "Helper", "Mo"].map((n) => member(t, n)),
    );
    t.services.config.moderators = [mod.id];
    const qid = await ask(t, asker, { title: "Can a deleted answer come back?" });
    const mid = await answer(t, helper, qid, "Buy cheap watches at spam.example");
    const act = (targetId: string, action: string) =>
      json<{ error?: string }>(
        postAs(t, mod, "/api/mod/actions", { targetType: "message", targetId, action }),
      );
    assert.equal((await act(mid, "delete")).status, 200);
    for (const action of ["restore", "hide", "dismiss", "delete"]) {
      const r = await act(mid, action);
      assert.deepEqual(
        [r.status, r.body.error],
        [409, "This post was deleted, and a deletion cannot be undone"],
        action,
      );
    }
    assert.equal((await act("msg-none", "restore")).status, 404);
  } finally {
    await t.close();
  }
});

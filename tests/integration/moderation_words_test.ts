/**
 * Moderation reachable and readable (issue 27, item 8): moderators get a "Moderation" link
 * with the queue's size in the header; the queue labels replies as replies; an action is
 * confirmed in words with Undo where it can be undone; the log names posts by their
 * question's title and an excerpt, never by an internal id.
 */
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { flagPost } from "@/lib/moderation/moderation.ts";
import { createTestApp } from "../helpers/app.ts";
import { answer, ask, getAs, member } from "../helpers/community.ts";

Deno.test("moderators reach /mod from the header and read it in words", async () => {
  const t = await createTestApp();
  try {
    const mod = await member(t, "Grace Hopper");
    t.services.config.moderators = [mod.id];
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const qid = await ask(t, ada, { title: "Where do batch cursors live?" });
    const a1 = await answer(t, bob, qid, "In a key of their own, next to the job.");
    const r1 = await answer(t, ada, qid, "Buy cheap watches at example dot com", a1);
    const flagged = await flagPost(t.kv, {
      userId: bob.id,
      targetType: "message",
      targetId: r1,
      reason: "spam",
      note: null,
    });
    assert.ok(flagged.ok);

    const home = parseHTML(await (await getAs(t, mod, "/")).text()).document;
    const link = home.querySelector('.site-header a[href="/mod"]');
    assert.ok(link, "moderators see the Moderation link");
    assert.match(link.textContent ?? "", /^Moderation\s*\(1 waiting\)\s*1$/);
    const plain = await (await getAs(t, ada, "/")).text();
    assert.ok(!plain.includes('href="/mod"'), "others do not");

    const queue = parseHTML(await (await getAs(t, mod, "/mod")).text()).document;
    assert.equal(queue.querySelector('[data-testid="mod-kind"]')?.textContent?.trim(), "Reply");
    const hide = queue.querySelector('button[aria-label="Hide: reply by Ada"]');
    assert.ok(hide, "the Hide button names the reply and its author");

    const form = new URLSearchParams({ targetType: "message", targetId: r1, action: "hide" });
    const res = await t.request("/mod", {
      method: "POST",
      headers: {
        cookie: mod.cookie,
        origin: t.services.config.appOrigin,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: form.toString(),
    });
    assert.equal(res.status, 303);
    const after = parseHTML(await (await getAs(t, mod, res.headers.get("location")!)).text())
      .document;
    const done = after.querySelector('[data-testid="mod-done"]');
    assert.ok(done, "the action is confirmed");
    assert.match(done.textContent ?? "", /^Hidden\.\s*Undo$/);
    assert.equal(done.querySelector('input[name="action"]')?.getAttribute("value"), "restore");
    assert.equal(done.querySelector('input[name="targetId"]')?.getAttribute("value"), r1);

    const logCell = after.querySelector(".mod-log tbody tr td:last-child");
    const text = logCell?.textContent ?? "";
    assert.match(text, /^Reply in Where do batch cursors live\?/);
    assert.match(text, /“Buy cheap watches at example dot com”/);
    assert.ok(!text.includes(r1), "no internal id in the log");
    assert.match(after.querySelector(".mod-log tbody tr")?.textContent ?? "", /Hidden/);

    // A query that names no action is ignored rather than echoed.
    const odd = await (await getAs(t, mod, "/mod?done=%3Cb%3E&type=x&id=y")).text();
    assert.ok(!odd.includes('data-testid="mod-done"'));
  } finally {
    await t.close();
  }
});

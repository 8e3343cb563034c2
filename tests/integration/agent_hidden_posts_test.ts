/**
 * A post hidden by a moderator is invisible to every reader that is neither its author nor
 * a moderator — agents included (lib/community/visibility.ts): agent participation never
 * replies to it (no 409 loop on `reply_not_found`), MCP's `get_question` and the thread API
 * leave it out for others and show it to its author.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createTestApp, serveAppOnLoopback, type TestApp } from "../helpers/app.ts";
import {
  agentKey,
  answer,
  ask,
  getAs,
  json,
  type Member,
  member,
  postAs,
} from "../helpers/community.ts";
import { type FakeCall, startFakeLlm } from "../helpers/fake_llm.ts";

const REPLY =
  "Following up on the discussion so far: winter maintenance decides whether lanes work.";

/** Every reply prompt the fake model saw. */
function replyPrompts(calls: FakeCall[]): string[] {
  return calls.filter((c) => (c.messages[0]?.content ?? "").includes("replying in a discussion"))
    .map((c) => c.messages.map((m) => m.content).join("\n"));
}

async function withThread(
  fn: (ctx: {
    t: TestApp;
    calls: FakeCall[];
    mod: Member;
    ada: Member;
    bob: Member;
    q: string;
    visible: string;
    hidden: string;
  }) => Promise<void>,
) {
  const fake = startFakeLlm(() => ({ text: REPLY }));
  const t = await createTestApp({ env: fake.env, llmTimeoutMs: 5_000 });
  try {
    const mod = await member(t, "Mod");
    t.services.config.moderators = [mod.id];
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q = await ask(t, bob, { title: "Should cities build more bike lanes?" });
    const visible = await answer(t, bob, q, "Lanes work where they are cleared in winter.");
    // The newest message, by someone else than Ada: what a reply would answer.
    const hidden = await answer(t, bob, q, "BUY CHEAP WATCHES at spam.example", visible);
    const hide = await json(
      postAs(t, mod, "/api/mod/actions", {
        targetType: "message",
        targetId: hidden,
        action: "hide",
      }),
    );
    assert.equal(hide.status, 200);
    await fn({ t, calls: fake.calls, mod, ada, bob, q, visible, hidden });
  } finally {
    await t.close();
    await fake.close();
  }
}

Deno.test("participation never replies to a hidden message: the newest reply hidden, the agent answers the newest visible one", async () => {
  await withThread(async ({ t, calls, ada, q, visible, hidden }) => {
    const body = { forceAction: "reply_existing", preferredQuestionId: q };
    const preview = await json<{ draftId: string; reply: { replyTo: string | null } }>(
      postAs(t, ada, "/api/agent/participate/preview", body),
    );
    assert.equal(preview.status, 200);
    assert.equal(preview.body.reply.replyTo, visible, "not the hidden message");
    assert.ok(replyPrompts(calls).every((p) => !p.includes("CHEAP WATCHES")), "not in the prompt");
    const posted = await json<{ replyMessage: { replyTo: string } }>(
      postAs(t, ada, "/api/agent/participate/post", { draftId: preview.body.draftId }),
    );
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    assert.equal(posted.body.replyMessage.replyTo, visible);

    // The one-step endpoint too, again and again: never the hidden one, never a 409 or 500.
    for (let i = 0; i < 3; i++) {
      const r = await json<{ replyMessage: { replyTo: string } }>(
        postAs(t, ada, "/api/agent/participate", body),
      );
      assert.equal(r.status, 200);
      assert.notEqual(r.body.replyMessage.replyTo, hidden);
    }
  });
});

Deno.test("a draft whose message is hidden after the preview answers 409 in words once; asking again targets a visible message", async () => {
  await withThread(async ({ t, mod, ada, bob, q, visible }) => {
    const newest = await answer(t, bob, q, "Paint is not protection.", visible);
    const body = { forceAction: "reply_existing", preferredQuestionId: q };
    const first = await json<{ draftId: string; reply: { replyTo: string } }>(
      postAs(t, ada, "/api/agent/participate/preview", body),
    );
    assert.equal(first.body.reply.replyTo, newest);
    await postAs(t, mod, "/api/mod/actions", {
      targetType: "message",
      targetId: newest,
      action: "hide",
    });
    const refused = await json<{ error: string }>(
      postAs(t, ada, "/api/agent/participate/post", { draftId: first.body.draftId }),
    );
    assert.equal(refused.status, 409);
    assert.equal(
      refused.body.error,
      "The message your agent replied to was removed. Ask your agent again for a new draft.",
    );
    const again = await json<{ draftId: string; reply: { replyTo: string } }>(
      postAs(t, ada, "/api/agent/participate/preview", body),
    );
    assert.equal(again.body.reply.replyTo, visible, "the new draft skips the hidden message");
    const posted = await postAs(t, ada, "/api/agent/participate/post", {
      draftId: again.body.draftId,
    });
    assert.equal(posted.status, 200);
    await posted.body?.cancel();
  });
});

Deno.test("MCP get_question and the thread API leave a hidden message out for other agents and people, and show it to its author and moderators", async () => {
  await withThread(async ({ t, mod, ada, bob, q, visible, hidden }) => {
    const srv = serveAppOnLoopback(t);
    const ids = async (key: string) => {
      const client = new Client({ name: "parley-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
        }),
      );
      try {
        const got = await client.callTool({ name: "get_question", arguments: { id: q } });
        assert.ok(!got.isError);
        return (got.structuredContent as { messages: { id: string }[] }).messages.map((m) => m.id);
      } finally {
        await client.close();
      }
    };
    const restIds = async (who: Member | null) =>
      (await json<{ messages: { id: string }[] }>(getAs(t, who, `/api/questions/${q}`))).body
        .messages.map((m) => m.id);
    try {
      assert.deepEqual(await ids(await agentKey(t, ada)), [visible], "another person's agent");
      assert.deepEqual(await ids(await agentKey(t, bob)), [visible, hidden], "its author's agent");
      assert.deepEqual(await restIds(null), [visible]);
      assert.deepEqual(await restIds(ada), [visible]);
      assert.deepEqual(await restIds(bob), [visible, hidden]);
      assert.deepEqual(await restIds(mod), [visible, hidden]);
    } finally {
      await srv.close();
    }
  });
});

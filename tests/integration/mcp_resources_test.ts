/**
 * `/mcp` beyond tools, through the official SDK's `Client` against the real app: the
 * declared capabilities, questions as resources (list with cursors, the template, read
 * as JSON and Markdown), the three prompts, argument completion of question ids and tags,
 * and `logging/setLevel`.
 */
import assert from "node:assert/strict";
import { answer, ask, member } from "../helpers/community.ts";
import { withMcp } from "../helpers/mcp.ts";
import { RESOURCE_LIST_MAX, RESOURCE_PAGE_SIZE } from "@/lib/agent/mcp_resources.ts";

type Contents = { uri: string; mimeType?: string; text?: string }[];

Deno.test("mcp: initialize declares resources (no subscriptions), prompts, completions and logging", async () => {
  await withMcp(async ({ client }) => {
    const caps = client.getServerCapabilities();
    assert.deepEqual(caps?.resources, { subscribe: false, listChanged: false });
    assert.deepEqual(caps?.prompts, { listChanged: false });
    assert.deepEqual(caps?.completions, {});
    assert.deepEqual(caps?.logging, {});
    assert.ok(caps?.tools);
    // Subscribing is not offered: the SDK's server answers Method not found.
    await assert.rejects(
      client.subscribeResource({ uri: "parley://questions/q-x" }),
      /Method not found|does not support/,
    );
  });
});

Deno.test("mcp: logging/setLevel is accepted with an empty result", async () => {
  await withMcp(async ({ client }) => {
    for (const level of ["debug", "info", "warning", "error"] as const) {
      assert.deepEqual(await client.setLoggingLevel(level), {});
    }
    await assert.rejects(
      client.request(
        { method: "logging/setLevel", params: { level: "loud" } },
        (await import("@modelcontextprotocol/sdk/types.js")).EmptyResultSchema,
      ),
      /Invalid/,
    );
  });
});

Deno.test("mcp: resources/list pages the newest questions with a cursor, up to its cap", async () => {
  await withMcp(
    async ({ t, client }) => {
      const bob = await member(t, "Bob");
      const ids: string[] = [];
      const total = RESOURCE_PAGE_SIZE + 5;
      for (let i = 0; i < total; i++) {
        ids.push(await ask(t, bob, { title: `Resource question ${i}`, tags: ["res"] }));
      }
      const first = await client.listResources();
      assert.equal(first.resources.length, RESOURCE_PAGE_SIZE);
      assert.deepEqual(first.resources[0], {
        uri: `parley://questions/${ids[total - 1]}`,
        name: ids[total - 1],
        title: `Resource question ${total - 1}`,
        description: first.resources[0].description,
        mimeType: "application/json",
        annotations: first.resources[0].annotations,
      });
      assert.match(
        String(first.resources[0].description),
        /^Asked \d{4}-\d\d-\d\d by Bob · tags: res$/,
      );
      assert.match(String(first.resources[0].annotations?.lastModified), /^\d{4}-\d\d-\d\dT/);
      assert.ok(first.nextCursor, "a next page");
      const second = await client.listResources({ cursor: first.nextCursor });
      assert.deepEqual(
        [...first.resources, ...second.resources].map((r: { name: string }) => r.name),
        [...ids].reverse(),
      );
      assert.equal(second.nextCursor, undefined);
      await assert.rejects(client.listResources({ cursor: "not-a-cursor" }), /Invalid cursor/);
      // A cursor past the cap is refused: a client walking every page stops at the cap.
      const pastCap = `${RESOURCE_LIST_MAX / RESOURCE_PAGE_SIZE + 1}.${
        first.nextCursor!.split(".").slice(1).join(".")
      }`;
      await assert.rejects(client.listResources({ cursor: pastCap }), /Invalid cursor/);
    },
    undefined,
    { env: { LIMIT_QUESTIONS_PER_HOUR: "0" } },
  );
});

Deno.test("mcp: the question template reads as JSON and Markdown; unknown ones are Resource not found", async () => {
  await withMcp(async ({ t, client }) => {
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((r: { uriTemplate: string }) => r.uriTemplate), [
      "parley://questions/{id}",
    ]);
    const bob = await member(t, "Bob");
    const carol = await member(t, "Carol");
    const id = await ask(t, bob, {
      title: "How do I page a KV list?",
      description: "I tried `kv.list`.\n\nIt repeats.",
      tags: ["deno", "kv"],
    });
    const a = await answer(t, carol, id, "Pass the cursor back.");
    await answer(t, bob, id, "Thanks!", a);

    const uri = `parley://questions/${id}`;
    const { contents } = await client.readResource({ uri }) as { contents: Contents };
    assert.deepEqual(contents.map((c) => [c.uri, c.mimeType]), [
      [uri, "application/json"],
      [uri, "text/markdown"],
    ]);
    const json = JSON.parse(contents[0].text!);
    assert.equal(json.id, id);
    assert.equal(json.description, "I tried `kv.list`.\n\nIt repeats.");
    assert.deepEqual(json.messages.map((m: { id: string }) => m.id).length, 2);
    // The same shape get_question answers.
    const tool = await client.callTool({ name: "get_question", arguments: { id } });
    assert.deepEqual(Object.keys(json).sort(), Object.keys(tool.structuredContent!).sort());

    const md = contents[1].text!;
    assert.match(md, /^# How do I page a KV list\?\n/);
    assert.ok(md.includes("Asked by Bob"), md);
    assert.ok(md.includes("tags: deno, kv"), md);
    assert.ok(md.includes("I tried `kv.list`.\n\nIt repeats."), md);
    assert.ok(md.includes(`### Answer by Carol`), md);
    assert.ok(md.includes("Pass the cursor back."), md);
    assert.ok(md.includes("> **Reply by Bob"), md);
    assert.ok(md.includes("> Thanks!"), md);
    assert.ok(md.includes(`${t.services.config.appOrigin}/questions/${id}`), md);

    for (const bad of ["parley://questions/q-nope", "parley://answers/x", "https://x.example/"]) {
      await assert.rejects(client.readResource({ uri: bad }), /-32002|Resource not found/, bad);
    }
  });
});

Deno.test("mcp: prompts list with their arguments, and each embeds Parley's content", async () => {
  await withMcp(async ({ t, client }) => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(
      prompts.map((p: { name: string; arguments?: { name: string; required?: boolean }[] }) => [
        p.name,
        p.arguments?.map((a) => `${a.name}${a.required ? "" : "?"}`),
      ]),
      [["answer_question", ["id"]], ["summarize_thread", ["id"]], ["draft_question", ["topic"]]],
    );
    for (const p of prompts) assert.ok(p.description, p.name);

    const bob = await member(t, "Bob");
    const id = await ask(t, bob, {
      title: "Why does my fern droop?",
      description: "Watered daily, still droops.",
      tags: ["garden"],
    });
    await answer(t, bob, id, "Too much water: let it dry.");

    const answerIt = await client.getPrompt({ name: "answer_question", arguments: { id } });
    assert.equal(answerIt.messages.length, 1);
    const aText = (answerIt.messages[0].content as { text: string }).text;
    assert.equal(answerIt.messages[0].role, "user");
    assert.ok(aText.includes("# Why does my fern droop?"), aText);
    assert.ok(aText.includes("Watered daily, still droops."), aText);
    assert.ok(aText.includes("Too much water: let it dry."), aText);
    assert.ok(aText.includes(`reply {questionId: "${id}", content}`), aText);
    assert.ok(aText.includes("not as instructions"), aText);

    const summary = await client.getPrompt({ name: "summarize_thread", arguments: { id } });
    assert.equal(summary.messages.length, 2);
    assert.match((summary.messages[0].content as { text: string }).text, /^Summarize/);
    const embedded = summary.messages[1].content as {
      type: string;
      resource: { uri: string; mimeType: string; text: string };
    };
    assert.equal(embedded.type, "resource");
    assert.equal(embedded.resource.uri, `parley://questions/${id}`);
    assert.equal(embedded.resource.mimeType, "text/markdown");
    assert.ok(embedded.resource.text.includes("Watered daily, still droops."));

    const draft = await client.getPrompt({
      name: "draft_question",
      arguments: { topic: "fern droop" },
    });
    const dText = (draft.messages[0].content as { text: string }).text;
    assert.ok(dText.includes("about: fern droop"), dText);
    assert.ok(dText.includes(`${id}: “Why does my fern droop?” (1 answer; tags: garden)`), dText);
    assert.ok(dText.includes("ask_question"), dText);
    const nothing = await client.getPrompt({
      name: "draft_question",
      arguments: { topic: "quantum marmalade" },
    });
    assert.ok(
      (nothing.messages[0].content as { text: string }).text.includes("No question on Parley"),
    );

    await assert.rejects(
      client.getPrompt({ name: "answer_question", arguments: { id: "q-nope" } }),
      /Question not found/,
    );
    await assert.rejects(
      client.getPrompt({ name: "answer_question", arguments: {} }),
      /id is required/,
    );
    await assert.rejects(client.getPrompt({ name: "no_such_prompt" }), /not found/);
  });
});

Deno.test("mcp: completion offers recent question ids by prefix and tags by prefix, most used first", async () => {
  await withMcp(async ({ t, client }) => {
    const bob = await member(t, "Bob");
    const ids: string[] = [];
    for (const tags of [["deno", "deno-kv"], ["deno"], ["denormal"], ["rust"]]) {
      ids.push(await ask(t, bob, { title: `About ${tags.join(" and ")}`, tags }));
    }
    const complete = async (ref: Record<string, string>, name: string, value: string) =>
      (await client.complete({
        ref: ref as { type: "ref/prompt"; name: string },
        argument: { name, value },
      })).completion;

    const tags = await complete({ type: "ref/prompt", name: "draft_question" }, "topic", "De");
    assert.deepEqual(tags.values, ["deno", "deno-kv", "denormal"]);
    assert.equal(tags.total, 3);
    assert.equal(tags.hasMore, false);
    assert.deepEqual(
      (await complete({ type: "ref/prompt", name: "draft_question" }, "topic", "")).values,
      ["deno", "deno-kv", "denormal", "rust"],
    );
    assert.deepEqual(
      (await complete({ type: "ref/prompt", name: "draft_question" }, "topic", "zz")).values,
      [],
    );

    const all = await complete({ type: "ref/prompt", name: "answer_question" }, "id", "");
    assert.deepEqual(all.values, [...ids].reverse());
    const one = ids[2];
    const refs: Record<string, string>[] = [
      { type: "ref/prompt", name: "answer_question" },
      { type: "ref/prompt", name: "summarize_thread" },
      { type: "ref/resource", uri: "parley://questions/{id}" },
    ];
    for (const ref of refs) {
      const byPrefix = await complete(ref, "id", one.slice(0, one.length - 2));
      assert.ok(byPrefix.values.includes(one), JSON.stringify(ref));
      assert.ok(byPrefix.values.every((v: string) => v.startsWith(one.slice(0, one.length - 2))));
      assert.deepEqual((await complete(ref, "id", one)).values, [one]);
    }
    // An argument with nothing to complete: no values. An unknown prompt or template: an error.
    assert.deepEqual(
      (await complete({ type: "ref/prompt", name: "answer_question" }, "other", "x")).values,
      [],
    );
    await assert.rejects(
      complete({ type: "ref/prompt", name: "test_prompt_with_arguments" }, "arg1", "x"),
      /not found/,
    );
    await assert.rejects(
      complete({ type: "ref/resource", uri: "parley://nothing/{id}" }, "id", "x"),
      /not found/,
    );
  });
});

/**
 * Every MCP answer that carries posts stays far below the 25,000 tokens at which MCP
 * clients refuse a tool's output (Claude Code's limit), however big the thread: measured
 * with a real tokenizer (o200k, `gpt-tokenizer`) on the worst case the input limits
 * allow — 10,000-character texts everywhere, 120-character titles, five 40-character
 * tags, 2,048-character avatar URLs, 30 answers with replies — in three kinds of text:
 * English prose, Chinese (about one token a character) and random letters (the densest
 * in tokens per byte). `MCP_SIZE_TABLE=1` prints the measured table.
 */
import assert from "node:assert/strict";
import { encode } from "gpt-tokenizer";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { TestApp } from "../helpers/app.ts";
import { answer, ask, type Member, member, sendAs } from "../helpers/community.ts";
import { type Structured, withMcp } from "../helpers/mcp.ts";
import { CONTENT_MAX, DESCRIPTION_MAX, TAG_MAX_LENGTH, TITLE_MAX } from "@/lib/input_limits.ts";

/** Half of the clients' 25,000: what "far below" means for real text. */
const FAR_BELOW = 12_500;
/** Random letters are the adversarial case: still below the limit. */
const BELOW = 25_000;

const KINDS = {
  english: (n: number, seed: number) =>
    fill(
      n,
      `Answer ${seed}: Deno KV pages a list with a cursor; pass the cursor of the last page back and the next page starts after its last key. `,
    ),
  chinese: (n: number, seed: number) =>
    fill(
      n,
      `第${seed}个回答：使用游标对列表进行分页，把上一页的游标传回去，下一页就从最后一个键之后开始。`,
    ),
  random: (n: number) => {
    const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    const bytes = crypto.getRandomValues(new Uint8Array(n));
    return [...bytes].map((b) => abc[b % abc.length]).join("");
  },
};
type Kind = keyof typeof KINDS;

function fill(n: number, unit: string): string {
  return unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
}

function tokens(text: string): number {
  return encode(text).length;
}

/** A member whose posts carry a 2,048-character avatar URL. */
async function longAvatarMember(t: TestApp, name: string): Promise<Member> {
  const m = await member(t, name);
  const avatarUrl = `https://avatars.example/${"a".repeat(2048 - 24)}`;
  const res = await sendAs(t, m, "PATCH", "/api/profile/me", { avatarUrl });
  assert.equal(res.status, 200, await res.text());
  return m;
}

interface Measure {
  what: string;
  /** Tokens of what the model reads (the tool's text; a resource's or prompt's texts). */
  model: number;
  /** Tokens of the whole JSON-RPC result (structuredContent included). */
  whole: number;
}

async function measureAll(t: TestApp, client: Client, kind: Kind): Promise<Measure[]> {
  const text = (n: number, seed = 0) => KINDS[kind](n, seed);
  const bob = await longAvatarMember(t, "Bob");
  const carol = await longAvatarMember(t, "Carol");
  const tags = ["a", "b", "c", "d", "e"].map((c) => c.repeat(TAG_MAX_LENGTH));
  const title = (i: number) => `${i} ${text(TITLE_MAX - 3, i)}?`.slice(0, TITLE_MAX);
  for (let i = 0; i < 20; i++) {
    await ask(t, bob, { title: title(i), description: text(DESCRIPTION_MAX, i), tags });
  }
  // The big thread, asked by the key's owner (so its answers notify them).
  const asked = await client.callTool({
    name: "ask_question",
    arguments: { title: title(99), description: text(DESCRIPTION_MAX, 99), tags },
  });
  const id = String((asked.structuredContent as Structured).id);
  const answers: string[] = [];
  for (let i = 0; i < 30; i++) {
    answers.push(await answer(t, i % 2 ? carol : bob, id, text(CONTENT_MAX, i)));
  }
  for (let a = 0; a < 10; a++) {
    for (let r = 0; r < (a === 0 ? 12 : 3); r++) {
      await answer(t, a % 2 ? bob : carol, id, text(CONTENT_MAX, 100 + r), answers[a]);
    }
  }

  const out: Measure[] = [];
  const tool = async (name: string, args: Structured) => {
    const r = await client.callTool({ name, arguments: args });
    assert.ok(!r.isError, `${name}: ${JSON.stringify(r.content).slice(0, 200)}`);
    const modelText = (r.content as { text: string }[]).map((c) => c.text).join("\n");
    out.push({
      what: `${name} {${
        Object.entries(args).map(([k, v]) => `${k}: ${String(v).slice(0, 12)}`).join(", ")
      }}`,
      model: tokens(modelText),
      whole: tokens(JSON.stringify(r)),
    });
  };
  await tool("search_questions", {});
  await tool("search_questions", { q: "cursor" });
  await tool("get_question", { id });
  await tool("get_question", { id, page: 2 });
  await tool("get_question", { id, answer: answers[0] });
  await tool("read_post", { targetType: "question", id });
  await tool("read_post", { targetType: "message", id: answers[0] });
  await tool("list_notifications", {});
  await tool("reply", { questionId: id, content: text(CONTENT_MAX, 7) });
  await tool("edit_post", {
    targetType: "question",
    id,
    description: text(DESCRIPTION_MAX, 8),
  });

  const listed = await client.listResources();
  out.push({
    what: "resources/list",
    model: tokens(JSON.stringify(listed.resources)),
    whole: tokens(JSON.stringify(listed)),
  });
  const read = await client.readResource({ uri: `parley://questions/${id}` });
  out.push({
    what: "resources/read",
    model: tokens((read.contents as { text: string }[]).map((c) => c.text).join("\n")),
    whole: tokens(JSON.stringify(read)),
  });
  for (
    const [name, args] of [["answer_question", { id }], ["summarize_thread", { id }], [
      "draft_question",
      { topic: "cursor" },
    ]] as const
  ) {
    const got = await client.getPrompt({ name, arguments: args });
    out.push({
      what: `prompts/get ${name}`,
      model: tokens(JSON.stringify(got.messages)),
      whole: tokens(JSON.stringify(got)),
    });
  }
  // For comparison: the REST thread page, which get_question used to answer whole.
  const rest = await (await t.request(`/api/questions/${id}`)).text();
  out.push({
    what: "REST GET /api/questions/:id (old get_question)",
    model: tokens(rest),
    whole: 0,
  });
  return out;
}

for (const kind of Object.keys(KINDS) as Kind[]) {
  Deno.test(`mcp size: every answer stays below the clients' 25,000-token limit (${kind} text)`, async () => {
    await withMcp(
      async ({ t, client }) => {
        const measures = await measureAll(t, client, kind);
        if (Deno.env.get("MCP_SIZE_TABLE") === "1") {
          console.log(`\n${kind}: tokens (o200k) — model-facing / whole result`);
          for (const m of measures) console.log(`  ${m.what}: ${m.model} / ${m.whole}`);
        }
        const rest = measures.pop()!;
        // The worst case is real: the uncapped thread would have been far over the limit.
        assert.ok(rest.model > BELOW, `the REST thread is ${rest.model} tokens`);
        const bound = kind === "random" ? BELOW : FAR_BELOW;
        for (const m of measures) {
          assert.ok(m.model <= bound, `${m.what}: ${m.model} tokens (bound ${bound})`);
          assert.ok(m.whole <= 2 * bound, `${m.what}: whole ${m.whole} tokens`);
        }
      },
      undefined,
      {
        env: { LIMIT_QUESTIONS_PER_HOUR: "0", LIMIT_MESSAGES_PER_HOUR: "0" },
      },
    );
  });
}

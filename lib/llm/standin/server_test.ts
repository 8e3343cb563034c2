/**
 * The offline stand-in model: on-topic text within the length a prompt asks for, and
 * valid JSON (the requested shape) whenever JSON is asked for — for debates and for
 * agent participation (a plan, a new question, a reply).
 */
import assert from "node:assert/strict";
import { choosePersona } from "@/lib/debates/personas.ts";
import { synthesisPrompt, turnPrompt } from "@/lib/debates/prompts.ts";
import { type DebateMessage } from "@/lib/debates/model.ts";
import { SynthesisSchema } from "@/lib/schemas/debate.ts";
import { keywords } from "@/lib/llm/standin/compose.ts";
import { readPrompt } from "@/lib/llm/standin/read_prompt.ts";
import { standInAnswer, tokensOf } from "@/lib/llm/standin/server.ts";
import { StandInRequestSchema } from "@/lib/schemas/llm.ts";
import type { ChatMessage } from "@/lib/llm/types.ts";
import { askPrompt, planPrompt, replyPrompt } from "@/lib/participation/prompts.ts";
import { AskAnswerSchema, planSchema } from "@/lib/schemas/participation.ts";

const TOPICS = [
  "Should cities ban cars downtown?",
  "Will AI replace software engineers?",
  "Remote work is better than office work",
  "Is nuclear energy the answer to climate change?",
  "Pineapple belongs on pizza",
  "x",
  "Should schools teach Latin, Greek, and the history of ideas to every student before age twelve, even if it means less time for maths?",
];

const user = {
  name: "Ada",
  bio: "Cycles everywhere.",
  softMemory: { traits: ["curious"], interests: ["transit", "maps"] },
};

function ask(messages: ChatMessage[], json = false): string {
  return standInAnswer(StandInRequestSchema.parse({
    model: "parley-stand-in",
    messages,
    ...(json ? { response_format: { type: "json_object" } } : {}),
  }));
}

Deno.test("standInAnswer() keeps debate turns within 100–200 characters and mentions the topic", () => {
  for (const topic of TOPICS) {
    const opponent = choosePersona(topic);
    const messages: DebateMessage[] = [];
    for (let turn = 0; turn < 10; turn++) {
      const role = turn % 2 === 0 ? "user" : "opponent";
      const text = ask(turnPrompt({ topic, user, opponent }, role, messages));
      assert.ok(text.length >= 100 && text.length <= 200, `${text.length}: ${text}`);
      const topicWords = keywords(topic);
      if (topicWords.length > 0 && turn === 0) {
        assert.ok(topicWords.some((w) => text.toLowerCase().includes(w)), `on topic: ${text}`);
      }
      messages.push({
        role,
        name: role === "user" ? "Ada" : opponent.name,
        content: text,
        timestamp: 0,
      });
    }
  }
});

Deno.test("standInAnswer() honours any length a prompt asks for", () => {
  for (const [min, max] of [[10, 30], [40, 60], [100, 200], [250, 400], [5, 5]]) {
    for (let seed = 0; seed < 20; seed++) {
      const text = ask([{
        role: "user",
        content: `Topic: seeds number ${seed}\nWrite ${min} to ${max} characters.`,
      }]);
      assert.ok(text.length >= min && text.length <= max, `${min}-${max}: ${text.length}`);
    }
  }
});

Deno.test("standInAnswer() gives the same prompt the same answer and another prompt another one", () => {
  const p: ChatMessage[] = [{
    role: "user",
    content: "Topic: tea or coffee\nWrite 100 to 200 characters.",
  }];
  assert.equal(ask(p), ask(p));
  assert.notEqual(
    ask(p),
    ask([{ role: "user", content: "Topic: tabs or spaces\nWrite 100 to 200 characters." }]),
  );
});

Deno.test("standInAnswer() answers the judge's prompt with a valid Synthesis, JSON mode or not", () => {
  for (const topic of TOPICS) {
    const opponent = choosePersona(topic);
    const messages: DebateMessage[] = Array.from({ length: 10 }, (_, i) => ({
      role: i % 2 === 0 ? "user" as const : "opponent" as const,
      name: i % 2 === 0 ? "Ada" : opponent.name,
      content: `Point ${i} about ${topic}`,
      timestamp: i,
    }));
    for (const json of [true, false]) {
      const text = ask(synthesisPrompt({ topic, user, opponent }, messages), json);
      const parsed = SynthesisSchema.safeParse(JSON.parse(text));
      assert.ok(parsed.success, `${topic}: ${text}`);
      assert.ok(parsed.data.conclusion.length <= 100);
    }
  }
});

Deno.test("standInAnswer() answers a JSON object even without an example", () => {
  const text = ask([{ role: "user", content: "Topic: cats\nReply in JSON." }], true);
  const value = JSON.parse(text);
  assert.equal(typeof value.answer, "string");
  assert.ok(value.answer.length > 0);
});

Deno.test("standInAnswer() reads who speaks and answers the other side's last point", () => {
  const reading = readPrompt([
    { role: "system", content: "You are Vera Quell, a skeptic.\nInterests: data" },
    {
      role: "user",
      content:
        "Topic: diets\n\nTranscript so far:\nAda: Intermittent fasting works wonders.\n\nWrite 100 to 200 characters.",
    },
  ], false);
  assert.equal(reading.speaker, "Vera Quell");
  assert.equal(reading.topic, "diets");
  assert.equal(reading.lastPoint, "Intermittent fasting works wonders.");
  assert.equal(reading.interests, "data");
  assert.deepEqual([reading.minChars, reading.maxChars], [100, 200]);
});

Deno.test("tokensOf() splits an answer into tokens that reassemble it", () => {
  const text = "One two  three, four.";
  assert.equal(tokensOf(text).join(""), text);
  assert.deepEqual(tokensOf(text), ["One", " two", "  three,", " four."]);
});

Deno.test("standInAnswer() gives participation prompts a plan, a question ending in '?' and a reply on topic", () => {
  const persona = { name: "Ada", bio: "Cycles everywhere." };
  const summary = (title: string, upvotes: number, messageCount: number) => ({
    id: `q-${title.length}`,
    title,
    description: "",
    tags: ["city"],
    upvotes,
    downvotes: 0,
    messageCount,
    createdAt: 1,
    author: { id: "u-bob", name: "Bob", avatar: null },
    createdBy: "user" as const,
    answerCount: messageCount,
    acceptedMessageId: null,
    editedAt: null,
  });
  const recent = TOPICS.map((t, i) => summary(t, i, i % 3));
  for (let n = 1; n <= recent.length; n++) {
    const candidates = recent.slice(0, n).map((question) => ({ question, heat: 1 }));
    const plan = planSchema(n).safeParse(
      JSON.parse(ask(planPrompt(persona, candidates, {}), true)),
    );
    assert.ok(plan.success, JSON.stringify(plan.error?.issues));
    const asked = JSON.parse(ask(askPrompt(persona, recent.slice(0, n)), true));
    const parsed = AskAnswerSchema.safeParse(asked);
    assert.ok(parsed.success, JSON.stringify(asked));
    assert.match(parsed.data.title, /\?$/);
    assert.ok(parsed.data.title.length <= 110, parsed.data.title);
  }
  const { editedAt: _e, ...base } = summary("Should cities build more bike lanes?", 2, 1);
  const question = { ...base, status: "active" as const, discussionRounds: 0 };
  const said = {
    id: "m1",
    questionId: question.id,
    author: { id: "u-bob", name: "Bob", avatar: null },
    authorType: "user" as const,
    createdBy: "user" as const,
    content: "Protected lanes changed my commute completely.",
    createdAt: 2,
  };
  const reply = ask(replyPrompt(persona, question, [said], said));
  assert.ok(reply.length >= 200 && reply.length <= 700, `${reply.length}: ${reply}`);
  assert.match(reply, /protected|lanes|commute|completely|changed/i, "it answers Bob's point");
});

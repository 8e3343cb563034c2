import assert from "node:assert/strict";
import { composeReason, fillTemplate } from "./compose.ts";
import type { PromptReading } from "./read_prompt.ts";

const reading = (topic: string, seed: number): PromptReading => ({
  topic,
  minChars: 40,
  maxChars: 160,
  interests: "",
  wantsJson: true,
  seed,
});

// One of the reason templates with the quoted topic word in place.
const SENTENCE =
  /^(Recent questions leave “[^”]+” unexplored, so a new question could start that discussion\.|A fresh question about “[^”]+” seems more useful than adding to the existing threads\.|None of the recent threads asks about “[^”]+” yet\.|This discussion is active, and a reply about “[^”]+” can add something new\.|This thread has the most activity, and “[^”]+” is something I can speak to\.|The question about “[^”]+” is still open, so a careful reply can help\.)$/;

Deno.test("composeReason() writes one short template sentence that matches the action", () => {
  for (let seed = 1; seed < 40; seed++) {
    const topic = "The best lessons about without came from careful engines and bicycles";
    const ask = composeReason("ask_new", reading(topic, seed), seed);
    const reply = composeReason("reply_existing", reading(topic, seed), seed);
    assert.match(ask, SENTENCE);
    assert.match(reply, SENTENCE);
    assert.match(ask, /question|threads/);
    assert.match(reply, /reply|thread/);
    assert.ok(ask.length <= 160 && reply.length <= 160);
    assert.doesNotMatch(`${ask} ${reply}`, /“without”/, "no stop-word as the topic");
  }
  assert.equal(
    composeReason("ask_new", reading("", 3), 3).includes("“this topic”"),
    true,
    "no topic word: a plain phrase",
  );
});

Deno.test("fillTemplate() gives a plan's reason from the templates, not loose topic words", () => {
  const plan = fillTemplate(
    { action: "reply_existing|ask_new", question: 1, reason: "at most 160 characters" },
    reading("Should cities build more bike lanes downtown?", 7),
  ) as { action: string; reason: string };
  assert.match(plan.reason, SENTENCE);
  assert.match(plan.reason, plan.action === "ask_new" ? /question|threads/ : /reply|thread/);
});

import assert from "node:assert/strict";
import { EXPERTS } from "../../panel/experts.ts";
import { expertPrompt } from "../../panel/prompts.ts";
import type { QuestionRecord } from "../../community/questions/model.ts";
import type { MessageRecord } from "../../community/messages/model.ts";
import type { ChatMessage } from "../types.ts";
import { standInAnswer as answerOf } from "./server.ts";

const standInAnswer = (req: { messages: ChatMessage[] }) =>
  answerOf({ messages: req.messages.map((m) => ({ ...m })) });

const q = {
  id: "q-1",
  title: "How do I store passwords safely?",
  description: "A small web app with a few hundred users.",
  tags: ["security"],
} as unknown as QuestionRecord;

Deno.test("the stand-in writes each AI expert's message in that expert's field, about the question's words, in whole sentences", () => {
  const texts = new Set<string>();
  for (const e of EXPERTS) {
    const text = standInAnswer({ messages: expertPrompt(e, q, [], null) });
    texts.add(text);
    assert.ok(text.length >= 100 && text.length <= 600, text);
    assert.match(text, /^[A-Z].*[.!?]$/, text);
    assert.match(text, /passwords|store|safely/, `answers the question's words: ${text}`);
    assert.ok(!/\b(\w+) \1\b/i.test(text), `no doubled words: ${text}`);
    assert.ok(!/x{5}|weighing carefully before anyone decides/.test(text), text);
  }
  assert.equal(texts.size, EXPERTS.length, "each expert reads differently");
  const omar = EXPERTS.find((e) => e.id === "omar")!;
  assert.match(standInAnswer({ messages: expertPrompt(omar, q, [], null) }), /security engineer/i);
});

Deno.test("the stand-in's expert reply names the person answered and takes up their point", () => {
  const mei = EXPERTS.find((e) => e.id === "mei")!;
  const replyTo = {
    id: "m-1",
    author: { id: "u-1", name: "Ada", avatar: null },
    content: "Use bcrypt with a strong cost factor.",
  } as unknown as MessageRecord;
  const text = standInAnswer({ messages: expertPrompt(mei, q, [replyTo], replyTo) });
  assert.match(text, /Ada/, text);
  assert.match(text, /bcrypt|strong|cost|factor/, text);
});

import assert from "node:assert/strict";
import {
  AI_CREDIT_EXPERT,
  jsonLdText,
  QA_TEXT_MAX,
  type QaMessage,
  qaPage,
  type QaQuestion,
} from "./qa_page.ts";

const QUESTION: QaQuestion = {
  id: "q1",
  title: "Ferns?",
  description: "How **often** do I water them?",
  author: { id: "u1", name: "Ada" },
  createdAt: 0,
  editedAt: null,
  upvotes: 3,
  downvotes: 1,
  answerCount: 4,
  acceptedMessageId: "m2",
};

function message(id: string, extra: Partial<QaMessage> = {}): QaMessage {
  return {
    id,
    author: { id: `u-${id}`, name: `Author ${id}` },
    authorType: "user",
    content: `Answer ${id}`,
    createdAt: 1,
    upvotes: 0,
    downvotes: 0,
    ...extra,
  };
}

Deno.test("jsonLdText leaves nothing that can end a script element, and parses back", () => {
  const data = { text: "</script><!-- & \u2028\u2029" };
  const text = jsonLdText(data);
  assert.ok(!/[<>&\u2028\u2029]/.test(text));
  assert.deepEqual(JSON.parse(text), data);
});

Deno.test("qaPage: the accepted answer apart, replies, deleted and withheld answers left out, AI answers labelled", () => {
  const page = qaPage("https://p.example", QUESTION, [
    message("m1"),
    message("m2"),
    message("m3", { replyTo: "m1" }),
    message("m4", { deleted: true }),
    message("m5"),
    message("m6", { authorType: "ai", author: { id: "expert-x", name: "The Skeptic" } }),
  ], ["m5"]);
  const q = page?.mainEntity as Record<string, unknown>;
  assert.equal(q.text, "How **often** do I water them?");
  assert.equal(
    (q.acceptedAnswer as { url: string }).url,
    "https://p.example/questions/q1?answer=m2#m2",
  );
  const suggested = q.suggestedAnswer as { url: string; creditText?: string; author: unknown }[];
  assert.deepEqual(suggested.map((a) => a.url.split("#")[1]), ["m1", "m6"]);
  assert.equal(suggested[1].creditText, AI_CREDIT_EXPERT);
  assert.deepEqual(suggested[1].author, {
    "@type": "Organization",
    name: "The Skeptic (AI expert, Parley)",
  });
  assert.equal(suggested[0].creditText, undefined);
});

Deno.test("qaPage: none without a visible answer", () => {
  assert.equal(qaPage("https://p.example", QUESTION, [], []), null);
  const onlyHidden = [
    message("m1", { deleted: true }),
    message("m2"),
    message("m3", {
      replyTo: "m2",
    }),
  ];
  assert.equal(qaPage("https://p.example", QUESTION, onlyHidden, ["m2"]), null);
});

Deno.test("qaPage: a post's text is its whole source, code kept, bounded without splitting a character", () => {
  const code = "```ts\nconst kv = await Deno.openKv();\n```";
  const page = qaPage("https://p.example", QUESTION, [
    message("c1", { content: code }),
    message("c2", { content: `Call \`kv.atomic()\` then \`commit()\`.` }),
    message("c3", { content: "a".repeat(QA_TEXT_MAX - 2) + "🦕🦕" }),
  ], []);
  const q = page?.mainEntity as Record<string, unknown>;
  const answers = q.suggestedAnswer as { text: string }[];
  assert.equal(answers[0].text, code);
  assert.equal(answers[1].text, "Call `kv.atomic()` then `commit()`.");
  assert.equal(answers[2].text.length, QA_TEXT_MAX - 1);
  assert.ok(answers[2].text.endsWith("a…"), answers[2].text.slice(-4));
});

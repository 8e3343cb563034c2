import assert from "node:assert/strict";
import { standInAnswer } from "./server.ts";
import { minutesPrompt, selectionPrompt, statementPrompt } from "../../roundtables/prompts.ts";
import { minutesFor } from "../../schemas/roundtable.ts";
import { expertById } from "../../panel/experts.ts";
import type { RoundtableMessage } from "../../roundtables/model.ts";
import type { ChatMessage } from "../types.ts";

/** A chat request body as the stand-in's route receives it. */
const body = (messages: ChatMessage[], json = false) => ({
  messages: messages.map((m) => ({ ...m })),
  ...(json ? { response_format: { type: "json_object" } } : {}),
});

const TOPIC = "Should cities tax cars to pay for climate-friendly public transport?";

Deno.test("the stand-in chooses 3 to 5 catalogue experts whose fields match the topic, the same each time", () => {
  const ask = () =>
    JSON.parse(
      standInAnswer(body(selectionPrompt(TOPIC, "Our city council votes next month."), true)),
    );
  const { expertIds } = ask();
  assert.ok(expertIds.length >= 3 && expertIds.length <= 5, `${expertIds}`);
  assert.ok(expertIds.every((id: string) => expertById(id)), "catalogue ids only");
  assert.equal(new Set(expertIds).size, expertIds.length, "no expert twice");
  assert.ok(expertIds.includes("ingrid"), "the climate scientist sits on a climate topic");
  assert.ok(expertIds.includes("kwame"), "the economist sits on a tax topic");
  assert.deepEqual(ask().expertIds, expertIds, "deterministic");
});

Deno.test("the stand-in's statement answers the host by name when asked to, in the expert's voice and length", () => {
  const omar = expertById("omar")!;
  const table = { topic: TOPIC, background: "", experts: [omar, expertById("ada")!] };
  const text = standInAnswer(body(statementPrompt(
    omar,
    table,
    [],
    [],
    {
      kind: "host",
      to: { id: "h1", text: "What about the privacy of licence-plate cameras?", timestamp: 1 },
    },
    1,
    3,
  )));
  assert.ok(text.length >= 40 && text.length <= 420, `${text.length}`);
  assert.match(text, /the host/i);
});

Deno.test("the stand-in's minutes validate against the panel: one stance per expert, key points from what each said", () => {
  const experts = ["ingrid", "kwame", "omar"].map((id) => expertById(id)!);
  const messages: RoundtableMessage[] = experts.map((e, i) => ({
    id: `m${i + 1}`,
    expertId: e.id,
    name: e.name,
    content: `${e.name} thinks congestion pricing works. It needs care.`,
    round: 0,
    timestamp: i,
  }));
  const out = standInAnswer(
    body(minutesPrompt({ topic: TOPIC, background: "", experts }, messages, []), true),
  );
  const parsed = minutesFor(experts.map((e) => e.id)).safeParse(JSON.parse(out));
  assert.ok(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues));
  assert.deepEqual(parsed.data.stances.map((s) => s.expertId), ["ingrid", "kwame", "omar"]);
  assert.match(parsed.data.stances[1].keyPoints[0], /Kwame Mensah thinks congestion pricing works/);
  assert.ok(parsed.data.consensus.length > 0 && parsed.data.openQuestions.length > 0);
});

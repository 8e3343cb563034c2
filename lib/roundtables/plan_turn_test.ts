import assert from "node:assert/strict";
import { planTurn, salvageMinutes } from "./engine.ts";
import type { RoundtableMessage, StoredInterjection } from "./model.ts";

const experts = ["ada", "omar", "mei"].map((id) => ({ id, name: id, title: "" }));

function said(...ids: string[]): RoundtableMessage[] {
  return ids.map((expertId, i) => ({
    id: `m${i + 1}`,
    expertId,
    name: expertId,
    content: `${expertId} ${i}`,
    round: Math.floor(i / 3),
    timestamp: i,
  }));
}

Deno.test("turns follow the panel's order round by round; a discussion turn answers the latest statement by someone else; the last turn of a round closes it", () => {
  const order: string[] = [];
  const messages: RoundtableMessage[] = [];
  for (
    let turn = planTurn(experts, 2, messages, []);
    turn;
    turn = planTurn(experts, 2, messages, [])
  ) {
    order.push(
      `${turn.round}:${turn.expertId}:${turn.cue.kind === "reply" ? turn.cue.to.id : "-"}${
        turn.endsRound ? "|" : ""
      }`,
    );
    messages.push({ ...said(turn.expertId)[0], id: `m${messages.length + 1}` });
  }
  assert.deepEqual(order, [
    "0:ada:-",
    "0:omar:-",
    "0:mei:-|",
    "1:ada:m3",
    "1:omar:m4",
    "1:mei:m5|",
    "2:ada:m6",
    "2:omar:m7",
    "2:mei:m8|",
  ]);
});

Deno.test("a taken-up interjection directed to an expert out of turn gets an extra turn by that expert, then the order goes on; an undirected one is answered by the scheduled speaker; pending ones wait", () => {
  const messages = said("ada");
  const pending: StoredInterjection = { id: "h1", text: "Costs?", directTo: "mei", timestamp: 1 };
  assert.equal(planTurn(experts, 2, messages, [pending])!.expertId, "omar", "not taken up yet");
  const taken = { ...pending, afterMessageId: "m1" };
  const turn = planTurn(experts, 2, messages, [taken])!;
  assert.deepEqual([turn.expertId, turn.extra, turn.cue.kind, turn.round], [
    "mei",
    true,
    "host",
    0,
  ]);
  const answered = [...messages, { ...said("mei")[0], id: "m2", replyTo: "h1", extra: true }];
  assert.equal(planTurn(experts, 2, answered, [taken])!.expertId, "omar", "the order goes on");
  const undirected = { id: "h2", text: "Why?", timestamp: 2, afterMessageId: "m1" };
  const next = planTurn(experts, 2, messages, [undirected])!;
  assert.deepEqual([next.expertId, next.extra, next.cue.kind], ["omar", false, "host"]);
  // After the last scheduled turn, an open interjection still gets its answer.
  const all = said("ada", "omar", "mei", "ada", "omar", "mei", "ada", "omar", "mei");
  const late = { id: "h3", text: "Last one", timestamp: 3, afterMessageId: "m9", directTo: "omar" };
  assert.equal(planTurn(experts, 2, all, [late])!.expertId, "omar");
  assert.equal(planTurn(experts, 2, all, []), null);
});

Deno.test("salvaged minutes keep what is usable and give every expert a stance, or are null when nothing is", () => {
  const m = salvageMinutes({
    consensus: ["Go slowly", 3, ""],
    stances: [{ expertId: "omar", position: "Secure it first", keyPoints: ["threats"] }, {
      expertId: "ghost",
      position: "x",
    }],
  }, experts)!;
  assert.deepEqual(m.consensus, ["Go slowly"]);
  assert.deepEqual(m.stances.map((s) => s.expertId), ["ada", "omar", "mei"]);
  assert.equal(m.stances[1].position, "Secure it first");
  assert.match(m.stances[0].position, /not recorded/);
  assert.equal(salvageMinutes({ conclusion: "x" }, experts), null);
  assert.equal(salvageMinutes("nope", experts), null);
});

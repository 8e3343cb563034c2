import assert from "node:assert/strict";
import { type LiveRoundtable, liveRoundtableReducer, transcriptItems } from "./live_state.ts";

const empty: LiveRoundtable = {
  items: [],
  typing: null,
  minutes: null,
  phase: "discussing",
  problem: null,
  reconnecting: false,
};

const ev = (type: string, data: unknown) => ({ type: "event" as const, event: { type, data } });
const message = (id: string, expertId: string, content: string) => ({
  id,
  expertId,
  name: expertId,
  content,
  round: 0,
  timestamp: 1,
});

Deno.test("the page state follows the stream: typing text grows, a statement replaces it, the host's words take their place, a replay rebuilds without doubling", () => {
  let s = liveRoundtableReducer(empty, ev("speaking", { round: 0, expertId: "ada" }));
  s = liveRoundtableReducer(s, ev("chunk", { expertId: "ada", content: "Hel" }));
  s = liveRoundtableReducer(s, ev("chunk", { expertId: "ada", content: "lo" }));
  assert.equal(s.typing?.text, "Hello");
  s = liveRoundtableReducer(
    s,
    ev("statement", { round: 0, message: message("m1", "ada", "Hello") }),
  );
  assert.equal(s.typing, null);
  s = liveRoundtableReducer(s, ev("interjection", { id: "h1", text: "Costs?", directTo: "mei" }));
  s = liveRoundtableReducer(
    s,
    ev("statement", { round: 0, message: message("m1", "ada", "Hello") }),
  );
  assert.deepEqual(s.items.map((i) => i.kind === "host" ? i.id : i.message.id), ["m1", "h1"]);
  s = liveRoundtableReducer(s, { type: "replaying" });
  assert.deepEqual(s.items, []);
  s = liveRoundtableReducer(s, ev("summarizing", {}));
  assert.equal(s.phase, "summarizing");
  s = liveRoundtableReducer(s, ev("error", { message: "The model failed." }));
  assert.deepEqual([s.phase, s.problem], ["failed", "The model failed."]);
  assert.equal(liveRoundtableReducer(s, { type: "lost" }).problem, "The model failed.");
});

Deno.test("a stored roundtable's transcript places each interjection after the statement it followed", () => {
  const items = transcriptItems(
    [message("m1", "ada", "a"), message("m2", "omar", "b")],
    [{ id: "h1", text: "x", afterMessageId: null }, { id: "h2", text: "y", afterMessageId: "m1" }],
  );
  assert.deepEqual(items.map((i) => i.kind === "host" ? i.id : i.message.id), [
    "h1",
    "m1",
    "h2",
    "m2",
  ]);
});

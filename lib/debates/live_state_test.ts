/**
 * The live debate's state: each event of the stream and each step of the connection
 * (start, refusal, reconnection, replay, stop) changes it as the page shows it.
 */
import assert from "node:assert/strict";
import {
  CLOSED_EARLY,
  CONNECTION_LOST,
  initialLiveDebate,
  type LiveDebateAction,
  liveDebateReducer,
  type LiveDebateState,
  PERMALINK_CLOSED_EARLY,
  PERMALINK_CONNECTION_LOST,
} from "./live_state.ts";
import type { StreamEvent } from "./sse_reader.ts";

const USER_AVATAR = "https://example.com/ada.png";
const OPPONENT_AVATAR = "data:image/svg+xml,rex";

const SYNTHESIS = {
  winner: "user",
  conclusion: "The user's agent argued from evidence.",
  userScore: 8,
  opponentScore: 6,
};

function run(actions: LiveDebateAction[], from = initialLiveDebate(USER_AVATAR)) {
  return actions.reduce(liveDebateReducer, from);
}

const ev = (type: string, data: unknown, id?: string): LiveDebateAction => ({
  type: "event",
  event: { type, data, ...(id ? { id } : {}) } satisfies StreamEvent,
});

const init = ev("init", {
  id: "debate_1",
  topic: "Should cities ban cars?",
  opponentProfile: { name: "Rex", avatar: OPPONENT_AVATAR, title: "Contrarian" },
});

/** One whole turn: start, two chunks, the message. */
function turn(role: "user" | "opponent", name: string, content: string): LiveDebateAction[] {
  const half = Math.ceil(content.length / 2);
  return [
    ev("start", { role, name }),
    ev("chunk", { role, content: content.slice(0, half) }),
    ev("chunk", { role, content: content.slice(half) }),
    ev("message", { role, name, content, timestamp: 1 }),
  ];
}

Deno.test("before any debate nothing is shown and the user's avatar is kept for their turns", () => {
  assert.deepEqual(initialLiveDebate(USER_AVATAR), {
    phase: "idle",
    problem: null,
    userAvatar: USER_AVATAR,
    opponent: null,
    turns: [],
    synthesis: null,
    debateId: null,
    reconnecting: false,
    stopped: false,
  });
});

Deno.test("init shows the opponent, keeps the debate's id and starts the debating phase", () => {
  const s = run([{ type: "begin" }, init]);
  assert.equal(s.phase, "debating");
  assert.equal(s.debateId, "debate_1");
  assert.deepEqual(s.opponent, { name: "Rex", avatar: OPPONENT_AVATAR, title: "Contrarian" });
});

Deno.test("an opponent without an avatar is shown with none", () => {
  const s = run([ev("init", { id: "debate_2", opponentProfile: { name: "Rex" } })]);
  assert.deepEqual(s.opponent, { name: "Rex", avatar: null, title: undefined });
});

Deno.test("start opens an empty typing turn with the speaker's avatar", () => {
  const s = run([init, ev("start", { role: "user", name: "Ada" })]);
  assert.deepEqual(s.turns, [
    { role: "user", name: "Ada", avatar: USER_AVATAR, content: "", typing: true },
  ]);
  const t = run([
    ev("message", { role: "user", name: "Ada", content: "First.", timestamp: 1 }),
    ev("start", { role: "opponent", name: "Rex" }),
  ], s);
  assert.deepEqual(t.turns.map((x) => [x.role, x.avatar]), [
    ["user", USER_AVATAR],
    ["opponent", OPPONENT_AVATAR],
  ]);
});

Deno.test("chunks append to the turn being written; a chunk before any turn changes nothing", () => {
  const before = run([init]);
  assert.equal(run([ev("chunk", { role: "user", content: "lost" })], before), before);
  const s = run([
    init,
    ev("start", { role: "user", name: "Ada" }),
    ev("chunk", { role: "user", content: "Cars " }),
    ev("chunk", { role: "user", content: "crowd streets." }),
  ]);
  assert.equal(s.turns.length, 1);
  assert.equal(s.turns[0].content, "Cars crowd streets.");
  assert.equal(s.turns[0].typing, true);
});

Deno.test("message replaces the streamed text with the stored message and ends the typing", () => {
  const s = run([
    init,
    ev("start", { role: "user", name: "Ada" }),
    ev("chunk", { role: "user", content: "Cars crowd" }),
    ev("message", { role: "user", name: "Ada", content: "Cars crowd streets.", timestamp: 1 }),
  ]);
  assert.deepEqual(s.turns, [
    {
      role: "user",
      name: "Ada",
      avatar: USER_AVATAR,
      content: "Cars crowd streets.",
      typing: false,
    },
  ]);
  const empty = run([init]);
  assert.equal(
    run([ev("message", { role: "user", name: "Ada", content: "x", timestamp: 1 })], empty),
    empty,
  );
});

Deno.test("synthesizing moves to judging, synthesis shows the report, done ends the debate", () => {
  const debating = run([init, ...turn("user", "Ada", "First."), ...turn("opponent", "Rex", "No.")]);
  const judging = run([ev("synthesizing", {})], debating);
  assert.equal(judging.phase, "judging");
  assert.equal(judging.synthesis, null);
  const judged = run([ev("synthesis", SYNTHESIS)], judging);
  assert.deepEqual(judged.synthesis, SYNTHESIS);
  assert.equal(judged.phase, "judging");
  const done = run([ev("done", { id: "debate_1" })], judged);
  assert.equal(done.phase, "done");
  assert.deepEqual(done.turns.map((t) => t.content), ["First.", "No."]);
});

Deno.test("an error event stops every typing turn and shows the server's message", () => {
  const s = run([init, ev("start", { role: "user", name: "Ada" }), ev("error", { message: "x" })]);
  assert.equal(s.phase, "failed");
  assert.deepEqual(s.problem, { message: "x" });
  assert.deepEqual(s.turns.map((t) => t.typing), [false]);
  assert.deepEqual(run([ev("error", {})]).problem, { message: "The debate stopped." });
});

Deno.test("an event of another type changes nothing", () => {
  const s = run([init]);
  assert.equal(run([ev("ping", {})], s), s);
});

Deno.test("a start while the last turn is still typing restarts that turn (another instance writes it again)", () => {
  const s = run([
    init,
    ...turn("user", "Ada", "First."),
    ev("start", { role: "opponent", name: "Rex" }),
    ev("chunk", { role: "opponent", content: "Half a sen" }),
    // The instance writing Rex's turn died; after the resume, the turn starts over.
    ev("start", { role: "opponent", name: "Rex" }, "7"),
    ev("chunk", { role: "opponent", content: "A whole answer." }, "8"),
  ]);
  assert.deepEqual(s.turns.map((t) => [t.name, t.content, t.typing]), [
    ["Ada", "First.", false],
    ["Rex", "A whole answer.", true],
  ]);
});

Deno.test("reconnecting shows the status; a replay from the start rebuilds the transcript without doubling it", () => {
  const before = run([
    { type: "begin" },
    init,
    ...turn("user", "Ada", "First."),
    ev("start", { role: "opponent", name: "Rex" }),
    ev("chunk", { role: "opponent", content: "Half" }),
  ]);
  const waiting = run([{ type: "reconnecting" }], before);
  assert.equal(waiting.reconnecting, true);
  assert.equal(waiting.turns.length, 2, "the transcript stays while reconnecting");
  const replayed = run([
    { type: "replaying" },
    { type: "resumed" },
    init,
    ...turn("user", "Ada", "First."),
    ...turn("opponent", "Rex", "A whole answer."),
  ], waiting);
  assert.equal(replayed.reconnecting, false);
  assert.deepEqual(replayed.turns.map((t) => [t.name, t.content, t.typing]), [
    ["Ada", "First.", false],
    ["Rex", "A whole answer.", false],
  ]);
  // A later resume (after Last-Event-ID) continues where the stream left off.
  const resumed = run([
    { type: "reconnecting" },
    { type: "resumed" },
    ...turn("user", "Ada", "Second."),
  ], replayed);
  assert.deepEqual(resumed.turns.map((t) => t.content), ["First.", "A whole answer.", "Second."]);
});

Deno.test("a replay also clears a synthesis shown before the drop", () => {
  const s = run([init, ev("synthesizing", {}), ev("synthesis", SYNTHESIS), { type: "replaying" }]);
  assert.equal(s.synthesis, null);
  assert.deepEqual(s.turns, []);
});

Deno.test("a stream that closes for good before the end, or a lost connection, says the debate goes on", () => {
  const closed = run([init, { type: "reconnecting" }, { type: "closed" }, { type: "ended" }]);
  assert.equal(closed.phase, "failed");
  assert.deepEqual(closed.problem, { message: CLOSED_EARLY });
  assert.equal(closed.reconnecting, false);
  const lost = run([{ type: "begin" }, { type: "lost" }, { type: "ended" }]);
  assert.equal(lost.phase, "failed");
  assert.deepEqual(lost.problem, { message: CONNECTION_LOST });
});

Deno.test("on a permalink (a follower, perhaps not the owner) the words point to a reload, not to 'your history'", () => {
  const closed = run([init, { type: "closed", onPermalink: true }, { type: "ended" }]);
  assert.deepEqual(closed.problem, { message: PERMALINK_CLOSED_EARLY });
  const lost = run([init, { type: "lost", onPermalink: true }, { type: "ended" }]);
  assert.deepEqual(lost.problem, { message: PERMALINK_CONNECTION_LOST });
  for (const s of [closed, lost]) assert.doesNotMatch(s.problem!.message, /history/);
});

Deno.test("when following ends, no turn is left typing", () => {
  const s = run([
    init,
    ...turn("user", "Ada", "First."),
    ev("start", { role: "opponent", name: "Rex" }),
  ]);
  const ended = run([{ type: "ended" }], s);
  assert.deepEqual(ended.turns.map((t) => t.typing), [false, false]);
  assert.equal(ended.turns[0], s.turns[0], "a finished turn is kept as it was");
});

Deno.test("stop: the reader stops following, the debate counts as done here", () => {
  const s = run([init, { type: "reconnecting" }, { type: "stopped" }]);
  assert.equal(s.stopped, true);
  assert.equal(s.reconnecting, false);
  assert.equal(s.phase, "done");
});

Deno.test("a refused start says why: sign in on 401, the wait on 429, else the server's error", () => {
  const signIn = run([{ type: "begin" }, { type: "refused", status: 401 }]);
  assert.equal(signIn.phase, "failed");
  assert.deepEqual(signIn.problem, { message: "Sign in to start a debate.", signIn: true });
  const wait = (retryAfter?: number) => run([{ type: "refused", status: 429, retryAfter }]).problem;
  assert.deepEqual(wait(40), {
    message: "You have started too many debates in the last minute. Try again in 40 seconds.",
    retryAfter: 40,
  });
  assert.equal(wait(1)!.message.endsWith("Try again in 1 second."), true);
  assert.equal(wait(61)!.message.endsWith("Try again in 2 minutes."), true);
  assert.deepEqual(wait(undefined), {
    message: "You have started too many debates in the last minute. Try again in 1 minute.",
    retryAfter: 60,
  });
  assert.deepEqual(run([{ type: "refused", status: 503, error: "Parley is busy." }]).problem, {
    message: "Parley is busy.",
  });
  assert.deepEqual(run([{ type: "refused", status: 500 }]).problem, {
    message: "The debate could not start (HTTP 500).",
  });
});

Deno.test("an empty topic shows a problem without starting anything", () => {
  const s = run([{ type: "invalid", message: "Enter a topic to debate." }]);
  assert.equal(s.phase, "idle");
  assert.deepEqual(s.problem, { message: "Enter a topic to debate." });
});

Deno.test("a new debate clears what the last one showed", () => {
  const old: LiveDebateState = run([
    init,
    ...turn("user", "Ada", "First."),
    ev("synthesis", SYNTHESIS),
    ev("error", { message: "x" }),
    { type: "stopped" },
  ]);
  const s = run([{ type: "begin" }], old);
  assert.deepEqual(s, {
    ...initialLiveDebate(USER_AVATAR),
    phase: "starting",
  });
});

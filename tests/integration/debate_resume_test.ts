/**
 * Resumable and crash-safe debates: GET /api/debates/:id/events replays after
 * Last-Event-ID from any instance; a debate whose job's lease lapsed is continued by
 * another instance's resume pass from its last stored message.
 */
import assert from "node:assert/strict";
import { DebateWriter, LeaseLostError } from "@/lib/debates/writer.ts";
import { debateJobKind } from "@/lib/debates/job.ts";
import { claimJob, fence, type JobLease } from "@/lib/jobs/lease.ts";
import { JobRunner, LEASE_MS } from "@/lib/jobs/runner.ts";
import { closeLiveStreams } from "@/lib/http/sse.ts";
import { keys } from "@/lib/kv/keys.ts";
import { createTestApp, jsonWrite, signInAs, type TestApp, waitForJobs } from "../helpers/app.ts";
import { type FakeCall, startFakeLlm, textOfLength, VALID_SYNTHESIS } from "../helpers/fake_llm.ts";
import { parseResumable, readUntil, type SseEvent } from "../helpers/sse.ts";

const BODY = {
  topic: "Should cities ban cars downtown?",
  userProfile: { name: "Ada", bio: "Cycles to work." },
};

function startDebate(t: TestApp, cookie: string): Promise<Response> {
  return t.request("/api/debate", {
    method: "POST",
    headers: jsonWrite(t, cookie),
    body: JSON.stringify(BODY),
  });
}

const slowTurns = (delay: number) => (c: FakeCall) =>
  c.stream
    ? { text: textOfLength(150, `c${c.index}w`), tokenDelayMs: delay }
    : { text: VALID_SYNTHESIS };

/** Every turn's chunks, joined, per message (after dropping restarted turns' text). */
function assertCleanTranscript(events: SseEvent[]): void {
  const texts: string[] = [];
  let current = "";
  for (const e of events) {
    if (e.type === "start") current = "";
    if (e.type === "chunk") current += e.data.content;
    if (e.type === "message") {
      assert.equal(current, e.data.content, "the chunks spell the message");
      texts.push(e.data.content);
    }
  }
  assert.equal(texts.length, 10, "10 messages");
  assert.equal(new Set(texts).size, 10, "no message twice");
  assert.equal(events.at(-1)!.type, "done");
  assert.equal(events.filter((e) => e.type === "done").length, 1);
}

Deno.test("a client that drops after N events and reconnects with Last-Event-ID gets every later event exactly once, from a second instance on the same KV", async () => {
  const dir = await Deno.makeTempDir();
  const llm = startFakeLlm(slowTurns(8));
  const kvPath = `${dir}/kv.sqlite`;
  const a = await createTestApp({ kvPath, env: llm.env });
  const b = await createTestApp({ kvPath, env: llm.env });
  try {
    const { user, cookie } = await signInAs(a, "Ada");
    const post = await startDebate(a, cookie);
    assert.equal(post.status, 200);
    const postEvents = readUntil(post, () => false);
    // The debate's id from the owner's history index, then follow through instance A
    // and drop after 12 events.
    let id = "";
    for (let i = 0; i < 100 && !id; i++) {
      for await (const e of a.kv.list<string>({ prefix: keys.debatesByUserPrefix(user.id) })) {
        id = e.value;
      }
      if (!id) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(id, "the debate stored its first event");
    const first = await readUntil(
      await a.request(`/api/debates/${id}/events`, { headers: { cookie } }),
      (_e, all) => all.length === 12,
      { resumable: true },
    );
    assert.equal(first.length, 12);
    assert.deepEqual(first.map((e) => e.id), [...Array(12).keys()].map((i) => i + 1));
    assert.equal(first[0].type, "init");
    // Reconnect to the other instance with the last id seen.
    const rest = await readUntil(
      await b.request(`/api/debates/${id}/events`, {
        headers: { cookie, "last-event-id": String(first.at(-1)!.id) },
      }),
      (e) => e.type === "done" || e.type === "error",
      { resumable: true },
    );
    const ids = [...first, ...rest].map((e) => e.id!);
    assert.deepEqual(ids, [...Array(ids.length).keys()].map((i) => i + 1), "no gap, no repeat");
    assertCleanTranscript([...first, ...rest]);
    // The same with ?lastEventId= gives the same tail once the debate ended.
    const viaQuery = parseResumable(
      await (await b.request(`/api/debates/${id}/events?lastEventId=12`, { headers: { cookie } }))
        .text(),
    );
    assert.deepEqual(viaQuery, rest);
    // Resuming at (or past) the finished debate's last event: 204, which stops an
    // EventSource, instead of an empty stream it would reopen every second.
    const lastId = ids.at(-1)!;
    for (const resumeAt of [lastId, lastId + 100]) {
      const over = await b.request(`/api/debates/${id}/events`, {
        headers: { cookie, "last-event-id": String(resumeAt) },
      });
      assert.equal(over.status, 204, String(resumeAt));
      assert.equal(await over.text(), "");
    }
    // The POST stream kept docs/interface.md#debate-stream's framing and saw the same messages.
    const live = await postEvents;
    const messagesOf = (events: SseEvent[]) =>
      events.filter((e) => e.type === "message").map((e) => e.data.content);
    assert.deepEqual(messagesOf(live), messagesOf([...first, ...rest]));
  } finally {
    await waitForJobs(10_000, "debate");
    await a.close();
    await b.close();
    await llm.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a debate whose lease lapsed mid-message is continued by another instance from its last stored message; the old holder can no longer write", async () => {
  const dir = await Deno.makeTempDir();
  const llm = startFakeLlm(slowTurns(5));
  const kvPath = `${dir}/kv.sqlite`;
  const clockA = { t: Date.now() };
  const a = await createTestApp({ kvPath, env: llm.env, now: () => clockA.t });
  const b = await createTestApp({ kvPath, env: llm.env });
  try {
    const { cookie } = await signInAs(a, "Ada");
    const post = await startDebate(a, cookie);
    // Read until the third message and a chunk of the fourth, then leave.
    const seen = await readUntil(
      post,
      (e, all) => e.type === "chunk" && all.filter((x) => x.type === "message").length === 3,
    );
    const id = seen[0].data.id as string;
    // A runner on instance B, whose clock is past A's lease, takes the debate over.
    const later = Date.now() + LEASE_MS + 1_000;
    const runnerB = new JobRunner(b.kv, { owner: "b", now: () => later });
    runnerB.register(debateJobKind(b.services));
    const taken = await runnerB.pass();
    assert.deepEqual(taken, [`debate/${id}`]);
    await runnerB.waitIdle(20_000);
    await waitForJobs(20_000, "debate");
    const res = await b.request(`/api/debates/${id}`, { headers: { cookie } });
    const debate = await res.json();
    assert.equal(debate.status, "completed");
    assert.equal(debate.messages.length, 10);
    assert.equal(new Set(debate.messages.map((m: { content: string }) => m.content)).size, 10);
    assert.deepEqual(
      debate.messages.map((m: { role: string }) => m.role),
      [...Array(10).keys()].map((i) => i % 2 ? "opponent" : "user"),
    );
    assert.ok(debate.synthesis);
    // The full replay reads like one clean run (the abandoned partial turn is dropped).
    const replay = parseResumable(
      await (await b.request(`/api/debates/${id}/events`, { headers: { cookie } })).text(),
    );
    assertCleanTranscript(replay);
    // The job ended with the debate: nothing is left to claim.
    const stale = await claimJob(a.kv, "debate", id, "a", Date.now() + 3 * LEASE_MS, LEASE_MS);
    assert.deepEqual(stale, { ok: false, reason: "missing" });
    await runnerB.shutdown();
    const stats = await b.request("/api/profile/stats", { headers: { cookie } });
    assert.equal((await stats.json()).debatesCount, 1, "the debate counted once");
  } finally {
    await waitForJobs(10_000, "debate");
    await a.close();
    await b.close();
    await llm.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a writer whose job was taken over gets LeaseLostError and writes nothing", async () => {
  const t = await createTestApp({ llm: null });
  try {
    const id = "debate_1_fence";
    const runnerA = new JobRunner(t.kv, { owner: "a", now: () => 1_000 });
    const op = t.kv.atomic();
    runnerA.newJobOps(op, "debate", id);
    assert.ok((await op.commit()).ok);
    const leaseA = await claimJob(t.kv, "debate", id, "a", 1_000 + LEASE_MS + 1, LEASE_MS);
    assert.ok(leaseA.ok);
    // A's lease lapses; B claims.
    const leaseB = await claimJob(t.kv, "debate", id, "b", 1_000 + 3 * LEASE_MS, LEASE_MS);
    assert.ok(leaseB.ok);
    const writerOf = (lease: JobLease) =>
      new DebateWriter(t.kv, id, {
        fence: (op) => fence(op, lease),
        signal: new AbortController().signal,
      }, 0);
    const a = writerOf(leaseA.lease);
    const b = writerOf(leaseB.lease);
    await assert.rejects(a.commit([{ type: "synthesizing", data: {} }]), LeaseLostError);
    assert.ok(a.lost);
    await b.commit([{ type: "synthesizing", data: {} }]);
    const stored = await Array.fromAsync(t.kv.list({ prefix: keys.debateEventsPrefix(id) }));
    assert.equal(stored.length, 1, "only the holder's event");
    await a.close();
    await b.close();
  } finally {
    await t.close();
  }
});

Deno.test("a live follower of /api/debates/:id/events ends cleanly when the server shuts down, and starts with retry:", async () => {
  const llm = startFakeLlm(slowTurns(10));
  const t = await createTestApp({ env: llm.env });
  try {
    const { cookie } = await signInAs(t, "Ada");
    const post = await startDebate(t, cookie);
    const head = await readUntil(post, (e) => e.type === "start");
    const id = head[0].data.id as string;
    const res = await t.request(`/api/debates/${id}/events`, { headers: { cookie } });
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    assert.match(first, /^retry: \d+\n\n/);
    closeLiveStreams();
    const started = Date.now();
    let text = first;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    assert.ok(Date.now() - started < 2_000, "the stream closed at once");
    assert.ok(!text.includes("event: done"), "it ended before the debate did");
    parseResumable(text); // whatever came is well framed
  } finally {
    await waitForJobs(20_000, "debate");
    await t.close();
    await llm.close();
  }
});

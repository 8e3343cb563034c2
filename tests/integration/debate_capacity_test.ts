/**
 * Debate capacity: a global ceiling on debates running at once (MAX_CONCURRENT_DEBATES,
 * KV leases shared by every instance) → 503 with Retry-After; a per-user daily quota
 * (DEBATES_PER_USER_PER_DAY) → 429 with Retry-After. The fake model holds a stream open.
 */
import assert from "node:assert/strict";
import { runningDebatesEverywhere } from "@/lib/debates/capacity.ts";
import { createTestApp, jsonWrite, signInAs, type TestApp, waitForJobs } from "../helpers/app.ts";
import { defaultReply, startFakeLlm } from "../helpers/fake_llm.ts";

const body = JSON.stringify({
  topic: "Should cities ban cars downtown?",
  userProfile: { name: "Ada", bio: "Engineer.", softMemory: { traits: [], interests: [] } },
});

function start(t: TestApp, cookie: string) {
  return t.request("/api/debate", { method: "POST", headers: jsonWrite(t, cookie), body });
}

Deno.test("MAX_CONCURRENT_DEBATES: a debate over the ceiling is 503 with Retry-After; the slot frees when one ends", async () => {
  // The first model call of the first debate is held back, so that debate keeps running.
  const fake = startFakeLlm((call) =>
    call.index === 0
      ? { ...defaultReply(call), delayMs: 700 } as ReturnType<typeof defaultReply>
      : defaultReply(call)
  );
  const t = await createTestApp({ env: { ...fake.env, MAX_CONCURRENT_DEBATES: "1" } });
  try {
    assert.equal(t.services.config.maxConcurrentDebates, 1);
    const ada = await signInAs(t, "Ada");
    const bob = await signInAs(t, "Bob");
    const first = await start(t, ada.cookie);
    assert.equal(first.status, 200);
    assert.equal(await runningDebatesEverywhere(t.kv, Date.now()), 1);
    const busy = await start(t, bob.cookie);
    assert.equal(busy.status, 503);
    const retry = Number(busy.headers.get("retry-after"));
    assert.ok(retry >= 1 && retry <= 15, `Retry-After ${retry}`);
    const json = await busy.json();
    assert.equal(json.retryAfter, retry);
    assert.match(
      json.error,
      /^Parley is busy: 1 debates are running\. Try again in \d+ seconds?\.$/,
    );
    await first.text(); // the first debate runs to its end …
    await waitForJobs(5_000, "debate");
    assert.equal(await runningDebatesEverywhere(t.kv, Date.now()), 0, "… and frees its slot");
    const again = await start(t, bob.cookie);
    assert.equal(again.status, 200);
    await again.text();
    await waitForJobs(5_000, "debate");
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a crashed process's debate slot frees itself when its lease lapses", async () => {
  const { acquireDebateSlot, LEASE_MS } = await import("@/lib/debates/capacity.ts");
  const t = await createTestApp();
  try {
    const clock = { t: Date.now() };
    const now = () => clock.t;
    const a = await acquireDebateSlot(t.kv, { userId: "u1", max: 1, perUserPerDay: 0, now });
    assert.equal(a.ok, true);
    const b = await acquireDebateSlot(t.kv, { userId: "u2", max: 1, perUserPerDay: 0, now });
    assert.equal(b.ok, false);
    // The holder "crashes": no heartbeat, no release. After the lease, the slot is free.
    clock.t += LEASE_MS + 1;
    const c = await acquireDebateSlot(t.kv, { userId: "u2", max: 1, perUserPerDay: 0, now });
    assert.equal(c.ok, true);
    if (a.ok) await a.slot.release();
    if (c.ok) await c.slot.release();
  } finally {
    await t.close();
  }
});

Deno.test("DEBATES_PER_USER_PER_DAY: the user's next debate is 429 with Retry-After until the day frees one", async () => {
  const fake = startFakeLlm();
  const t = await createTestApp({ env: { ...fake.env, DEBATES_PER_USER_PER_DAY: "2" } });
  try {
    const ada = await signInAs(t, "Ada");
    for (let i = 0; i < 2; i++) {
      const r = await start(t, ada.cookie);
      assert.equal(r.status, 200);
      await r.text();
    }
    await waitForJobs(5_000, "debate");
    const refused = await start(t, ada.cookie);
    assert.equal(refused.status, 429);
    const retry = Number(refused.headers.get("retry-after"));
    assert.ok(retry > 86_000 && retry <= 86_400, `Retry-After ${retry}`);
    const json = await refused.json();
    assert.equal(json.retryAfter, retry);
    assert.match(
      json.error,
      /^Too many debates: you can start 2 per day\. Try again in 24 hours\.$/,
    );
    assert.equal(await runningDebatesEverywhere(t.kv, Date.now()), 0, "no slot kept by a refusal");
    // Another user has their own quota.
    const bob = await signInAs(t, "Bob");
    const other = await start(t, bob.cookie);
    assert.equal(other.status, 200);
    await other.text();
    await waitForJobs(5_000, "debate");
  } finally {
    await t.close();
    await fake.close();
  }
});

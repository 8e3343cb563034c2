/** The debate pages, server-rendered: /debate (agent profile, history) and /debates/:id. */
import assert from "node:assert/strict";
import { keys } from "@/lib/kv/keys.ts";
import type { ProfileRecord } from "@/lib/profile/profiles.ts";
import { createTestApp, jsonWrite, signInAs, type TestApp } from "../helpers/app.ts";
import { startFakeLlm } from "../helpers/fake_llm.ts";
import { parseSse } from "../helpers/sse.ts";

async function debate(t: TestApp, cookie: string, topic: string) {
  const res = await t.request("/api/debate", {
    method: "POST",
    headers: jsonWrite(t, cookie),
    body: JSON.stringify({
      topic,
      userProfile: { name: "Ada L.", softMemory: { traits: ["precise"], interests: ["engines"] } },
    }),
  });
  return parseSse(await res.text());
}

Deno.test("/debate for a visitor: sign-in is needed, said before any form, with a link back and to public debates", async () => {
  const t = await createTestApp({ llm: null });
  try {
    const res = await t.request("/debate");
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<title>Debate · Parley<\/title>/);
    assert.match(html, /<h2 id="debate-signin-title">Sign in to start a debate<\/h2>/);
    assert.match(html, /href="\/signin\?returnTo=%2Fdebate"[^>]*>Sign in to debate</);
    assert.match(html, /href="\/debates"[^>]*>Watch public debates</);
    // No form to fill in vain.
    assert.doesNotMatch(html, /data-island="DebateLive"|id="debate-topic"/);
    // A topic asked for is kept through sign-in.
    const topic = await (await t.request("/debate?topic=Tabs%20or%20spaces")).text();
    assert.match(topic, /returnTo=%2Fdebate%3Ftopic%3DTabs%2520or%2520spaces/);
    assert.match(topic, /Your topic, “Tabs or spaces”, will be waiting\./);
  } finally {
    await t.close();
  }
});

Deno.test("/debate for a member: the agent comes from the profile, traits from the last debate, history links", async () => {
  const fake = startFakeLlm();
  const t = await createTestApp({ env: fake.env });
  try {
    const { user, cookie } = await signInAs(t, "Ada");
    const profile: ProfileRecord = {
      displayName: "Ada Lovelace",
      avatarUrl: "https://example.com/ada.png",
      bio: "Poetical scientist <b>not bold</b>",
      coverUrl: null,
      provider: "provider_a",
      customized: true,
      createdAt: 1,
      updatedAt: 1,
    };
    await t.kv.set(keys.profile(user.id), profile);
    const events = await debate(t, cookie, "Can machines be creative?");
    const id = events[0].data.id;
    const html =
      await (await t.request("/debate?topic=Tabs%20or%20spaces", { headers: { cookie } }))
        .text();
    assert.match(html, /Ada Lovelace/);
    assert.match(html, /https:\/\/example.com\/ada.png/);
    assert.match(html, /Poetical scientist &lt;b>not bold&lt;\/b>/, "escaped");
    assert.match(html, />precise<button/);
    assert.match(html, />engines<button/);
    assert.match(html, />Tabs or spaces<\/textarea>/);
    assert.ok(html.includes(`href="/debates/${id}"`), "history links the saved debate");
    assert.match(html, /Can machines be creative\?/);
    assert.doesNotMatch(html, /data-testid="standin-note"/);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("/debates/:id re-reads a saved debate: transcript and report; private ones are hidden", async () => {
  const fake = startFakeLlm();
  const t = await createTestApp({ env: fake.env });
  try {
    const ada = await signInAs(t, "Ada");
    const events = await debate(t, ada.cookie, "Should <script> tags be banned?");
    const id = events[0].data.id;
    const res = await t.request(`/debates/${id}`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /Should &lt;script> tags be banned\?/);
    assert.equal(html.match(/data-testid="debate-turn"/g)?.length, 10);
    assert.match(html, /The judge&#39;s report|The judge's report/);
    for (
      const heading of [
        "Conclusion",
        "Where they agreed",
        "Where they disagreed",
        "Recommendations",
      ]
    ) {
      assert.ok(html.includes(heading), heading);
    }
    const opponent = events[0].data.opponentProfile.name;
    assert.ok(html.includes(`data-testid="synthesis-winner">${opponent} wins<`));
    assert.ok(!html.includes("<script> tags"), "the topic is escaped");
    // Visitors see whose agent it is; only the owner reads "Your agent".
    assert.match(html, /<div class="hint">Ada L\.(&#39;|')s agent<\/div>/, "visitor label");
    assert.ok(!html.includes("Your agent") && !html.includes("(your agent)"));
    const own = await (await t.request(`/debates/${id}`, { headers: { cookie: ada.cookie } }))
      .text();
    assert.ok(own.includes("Your agent"));

    // The owner's write goes through this instance, so the signed-out page cache drops it.
    const put = await t.request("/api/profile/settings", {
      method: "PUT",
      headers: jsonWrite(t, ada.cookie),
      body: JSON.stringify({ debateArchive: "private" }),
    });
    assert.equal(put.status, 200);
    await put.body?.cancel();
    assert.equal((await t.request(`/debates/${id}`)).status, 404);
    const grace = await signInAs(t, "Grace");
    assert.equal(
      (await t.request(`/debates/${id}`, { headers: { cookie: grace.cookie } })).status,
      404,
    );
    assert.equal(
      (await t.request(`/debates/${id}`, { headers: { cookie: ada.cookie } })).status,
      200,
    );
    assert.equal((await t.request("/debates/debate_0_missing")).status, 404);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("debates written by the stand-in model are labelled as such", async () => {
  const { standInPacing } = await import("@/lib/llm/standin/server.ts");
  standInPacing.wordDelayMs = 0;
  const t = await createTestApp();
  try {
    const { cookie } = await signInAs(t, "Ada");
    const page = await (await t.request("/debate", { headers: { cookie } })).text();
    assert.match(page, /"standIn":true/);
    const events = await debate(t, cookie, "Is tea better than coffee?");
    const html = await (await t.request(`/debates/${events[0].data.id}`)).text();
    assert.match(html, /data-testid="standin-note"/);
    assert.match(html, /offline stand-in model/);
  } finally {
    await t.close();
  }
});

Deno.test("the judge's report says each point once: repeats the model wrote are dropped when stored and when shown", async () => {
  const repeated = JSON.stringify({
    consensus: ["Both value evidence", "both value evidence."],
    disagreements: ["How fast to change"],
    winner: "tie",
    winnerReason: "Both made strong points.",
    conclusion: "Change carefully.",
    recommendations: [
      "Run a pilot first.",
      "Ask residents.",
      "run a pilot first",
      "Ask residents!",
    ],
  });
  const fake = startFakeLlm((call) => call.stream ? { text: "x ".repeat(75) } : { text: repeated });
  const t = await createTestApp({ env: fake.env });
  try {
    const ada = await signInAs(t, "Ada");
    const events = await debate(t, ada.cookie, "Car-free Sundays?");
    const done = events.find((e) => e.type === "done")!;
    assert.deepEqual(done.data.synthesis.recommendations, ["Run a pilot first.", "Ask residents."]);
    assert.deepEqual(done.data.synthesis.consensus, ["Both value evidence"]);
    const history =
      await (await t.request("/api/debate/history", { headers: { cookie: ada.cookie } }))
        .json();
    assert.deepEqual(history[0].synthesis.recommendations, [
      "Run a pilot first.",
      "Ask residents.",
    ]);
    const html = await (await t.request(`/debates/${done.data.id}`)).text();
    assert.equal(html.match(/<li>Run a pilot first\.<\/li>/g)?.length, 1);
    assert.equal(html.match(/<li>Ask residents\.<\/li>/g)?.length, 1);
  } finally {
    await t.close();
    await fake.close();
  }
});

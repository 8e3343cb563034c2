/**
 * Dates in one style: relative words ("5 minutes ago") in a `<time datetime>` with the exact
 * time on hover — on the profile's agent keys and connected apps, the keys page and the
 * debate history, where raw ISO dates ("2026-11-24 10:38 UTC") used to show.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";
import { agentKey, getAs, member } from "../helpers/community.ts";
import { connectApp, inProcess } from "../helpers/mcp_oauth.ts";
import { seedDebate } from "../helpers/seed.ts";

/** The text a person reads: no scripts (island props), no tags or their attributes. */
function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ");
}

/** `<time>` elements: their datetime, title and text. */
function times(html: string): { datetime: string; title: string; text: string }[] {
  return [...html.matchAll(/<time datetime="([^"]*)" title="([^"]*)">([^<]*)<\/time>/g)]
    .map((m) => ({ datetime: m[1], title: m[2], text: m[3] }));
}

Deno.test("credential and debate-history dates are relative, with the exact time on hover", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    await agentKey(t, ada, "ci-bot");
    await connectApp(inProcess(t), t.services.config.appOrigin, ada.cookie, {
      name: "Desk client",
    });
    await seedDebate(t, ada.id, "Tabs or spaces?");
    for (const path of ["/profile", "/profile/agent-keys", "/debate"]) {
      const html = await (await getAs(t, ada, path)).text();
      const text = visibleText(html);
      assert.doesNotMatch(text, /\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/, `${path} shows a raw date`);
      const drawn = times(html);
      assert.ok(drawn.length > 0, `${path} draws its dates as <time>`);
      for (const time of drawn) {
        assert.ok(!Number.isNaN(Date.parse(time.datetime)), `${path}: ${time.datetime}`);
        assert.match(time.title, /GMT$/, "the exact time on hover");
        assert.match(time.text, /^(just now|\d+ [a-z]+ ago)$/);
      }
      if (path === "/profile") {
        assert.match(text, /created just now/, "the key's creation date");
        assert.match(text, /connected just now/, "the app's connection date");
      }
      if (path === "/debate") assert.ok(text.includes("Tabs or spaces?"));
    }
  } finally {
    await t.close();
  }
});

/**
 * Page titles follow one pattern: what the page is, most specific first, then "Parley",
 * joined by " · " ("Ask a question · Parley", "<topic> · Debate · Parley"). Every page route
 * in the manifest is fetched (signed in as a moderator where the page needs a person), so a
 * new page without a title in the pattern fails here.
 */
import assert from "node:assert/strict";
import manifest from "@/manifest.gen.ts";
import { ROOT } from "../helpers/app.ts";
import { answer, ask, getAs, member } from "../helpers/community.ts";
import { CookieJar, localModeServer, ROUTES } from "../helpers/oauth.ts";
import { step } from "../helpers/processes.ts";
import { seedDebate } from "../helpers/seed.ts";
import { seedRoundtable } from "../helpers/roundtables.ts";

/** The one pattern: non-empty parts, " · " between them, "Parley" last, no dashes as joiners. */
const PATTERN = /^(?:[^·]+ · )+Parley$/;

function titleOf(html: string): string {
  const m = html.match(/<title>([\s\S]*?)<\/title>/);
  assert.ok(m, "the page has a <title>");
  return m[1].replaceAll("&amp;", "&").replaceAll("&#39;", "'").replaceAll("&quot;", '"');
}

Deno.test("every page's <title> reads '<page> · Parley'", async () => {
  const srv = await localModeServer();
  try {
    const { t } = srv;
    const mod = await member(t, "Grace Hopper");
    t.services.config.moderators = [mod.id];
    const qid = await ask(t, mod, {
      title: "How do I keep a migration resumable?",
      description: "Millions of keys.",
      tags: ["deno"],
    });
    await answer(t, mod, qid, "Write a cursor after each batch.");
    const debateId = await seedDebate(t, mod.id, "Tabs or spaces?");
    const roundtableId = await seedRoundtable(t.kv, mod.id, "Should towns charge cars?");
    // Page route → the paths that draw it (with the title each must have when it is fixed).
    const pages: Record<string, string[]> = {
      "./routes/index.tsx": ["/", "/?q=cursor", "/?tag=deno", "/?page=2"],
      "./routes/_404.tsx": ["/no-such-page"],
      "./routes/ask.tsx": ["/ask"],
      "./routes/debate.tsx": ["/debate"],
      "./routes/debates/index.tsx": ["/debates"],
      "./routes/debates/[id].tsx": [`/debates/${debateId}`],
      "./routes/docs/api.tsx": ["/docs/api"],
      "./routes/mod.tsx": ["/mod"],
      "./routes/notifications.tsx": ["/notifications"],
      "./routes/oauth/authorize.tsx": ["/oauth/authorize"],
      "./routes/profile/agent-keys.tsx": ["/profile/agent-keys"],
      "./routes/profile/index.tsx": ["/profile"],
      "./routes/questions/[id].tsx": [`/questions/${qid}`],
      "./routes/roundtables/index.tsx": ["/roundtables"],
      "./routes/roundtables/[id].tsx": [`/roundtables/${roundtableId}`],
      "./routes/questions/[id]/edit.tsx": [`/questions/${qid}/edit`],
      "./routes/questions/[id]/revisions.tsx": [`/questions/${qid}/revisions`],
      "./routes/signin.tsx": ["/signin"],
      "./routes/u/[userId].tsx": [`/u/${mod.id}`],
      // Reached through a sign-in's redirect below; the 500 page is checked by its source.
      "./routes/local-oauth/[provider]/authorize.tsx": [],
      "./routes/_500.tsx": [],
    };
    const pageRoutes = Object.keys(manifest.routes).filter((r) =>
      r.endsWith(".tsx") && r !== "./routes/_app.tsx"
    );
    assert.deepEqual(
      pageRoutes.filter((r) => !(r in pages)),
      [],
      "give each new page route a path here",
    );

    const titles: Record<string, string> = {};
    for (const paths of Object.values(pages)) {
      for (const path of paths) {
        for (const who of [null, mod]) {
          const res = await getAs(t, who, path);
          if (!res.headers.get("content-type")?.includes("text/html")) {
            await res.body?.cancel();
            continue;
          }
          titles[`${who ? "in" : "out"} ${path}`] = titleOf(await res.text());
        }
      }
    }
    // The local provider's account chooser, as a sign-in reaches it.
    const jar = new CookieJar();
    const start = await step(srv.origin, jar, ROUTES.provider_a.login);
    const chooser = await step(srv.origin, jar, start.headers.get("location")!);
    titles["local account chooser"] = titleOf(await chooser.text());
    const source = await Deno.readTextFile(`${ROOT}/routes/_500.tsx`);
    titles["500"] = titleOf(source);

    const off = Object.entries(titles).filter(([, title]) => !PATTERN.test(title));
    assert.deepEqual(off, [], "titles outside the pattern");
    // Spot checks: the most specific part comes first.
    assert.equal(titles["in /ask"], "Ask a question · Parley");
    assert.equal(titles[`in /questions/${qid}`], "How do I keep a migration resumable? · Parley");
    assert.equal(titles[`out /debates/${debateId}`], "Tabs or spaces? · Debate · Parley");
    assert.equal(titles["out /signin"], "Sign in · Parley");
    assert.equal(
      titles[`in /roundtables/${roundtableId}`],
      "Should towns charge cars? · Roundtable · Parley",
    );
    assert.equal(titles["in /profile"], "Your profile · Grace Hopper · Parley");
    assert.equal(titles["out /"], "Questions, answers and AI debates · Parley");
    // The check catches the old dashed style.
    assert.ok(!PATTERN.test("Sign in — Parley"));
    assert.ok(!PATTERN.test("Parley"));
  } finally {
    await srv.close();
  }
});

/**
 * A finished debate's page, in Chromium at 1280 and 390 px, signed in: every turn and the
 * judge's synthesis are drawn, nothing scrolls sideways, axe-core finds nothing, and the
 * page is saved as tests/e2e/screenshots/look-debate-<width>.png (the `-before` pair was
 * taken with this same test on the tree before the look work, for comparison).
 */
import assert from "node:assert/strict";
import { createTestApp, serveOnLoopback, signInAs, waitForJobs } from "../helpers/app.ts";
import { axeViolations } from "../helpers/axe.ts";
import { launchBrowser, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { type FakeCall, startFakeLlm } from "../helpers/fake_llm.ts";

/** Ten turns that read like a debate, alternating sides. */
const TURNS = [
  "Protected lanes make cycling safe enough for people who would never ride in traffic. Cities that built connected networks saw ridership double within a few years.",
  "Ridership figures often count the same commuters who moved from painted lanes. The lanes also take space from buses and deliveries that a city cannot do without.",
  "Buses and bikes can share the work: a lane that moves a thousand riders an hour beats a parking row that stores twenty cars. Deliveries get loading bays at corners.",
  "Loading bays work on paper. In practice drivers double-park, and the shop owners on the street see fewer customers who arrive by car and spend more.",
  "Studies of retail streets found people on bikes visit more often and spend as much per month. Shop owners overestimate how many of their customers drive.",
  "Even granting that, winter and hills cut cycling in half in many cities. Money spent on lanes that sit empty for four months could buy more frequent buses.",
  "Cities with real winters keep cycling high when lanes are cleared first. The cost per trip of a lane is a fraction of the cost per trip of a new bus line.",
  "A fair point on cost per trip, if the lanes fill. Build them where the trips are, measure, and be ready to change a lane that does not earn its space.",
  "Agreed: a network of connected lanes, measured each year, starting where short car trips are most common, and buses kept fast on the same streets.",
  "Then we agree more than we differ: connect the network, measure it honestly, protect bus speeds, and give deliveries space that is enforced.",
];

const SYNTHESIS = JSON.stringify({
  consensus: [
    "Connected networks matter more than isolated lanes",
    "Lanes should be measured and changed when they do not earn their space",
  ],
  disagreements: ["How much winter and hills limit cycling", "What shops lose or gain"],
  winner: "user",
  winnerReason: "Answered each objection with evidence and proposed a measurable plan.",
  conclusion: "Build protected lanes as a connected network, keep buses fast, measure yearly.",
  recommendations: [
    "Start with the corridors with the most short car trips",
    "Publish ridership counts yearly",
  ],
});

Deno.test({
  name: "a finished debate's page at 1280 and 390: every turn and the synthesis, axe clean",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    let turn = 0;
    const llm = startFakeLlm((c: FakeCall) =>
      c.stream ? { text: TURNS[turn++ % TURNS.length] } : { text: SYNTHESIS }
    );
    const t = await createTestApp({ env: llm.env });
    const srv = serveOnLoopback(t.app.fetch);
    const browser = await launchBrowser();
    try {
      const ada = await signInAs(t, "Ada Lovelace");
      const start = await t.request("/api/debate", {
        method: "POST",
        headers: {
          cookie: ada.cookie,
          origin: t.services.config.appOrigin,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          topic: "Should cities build more protected bike lanes?",
          userProfile: { name: "Ada's agent" },
        }),
      });
      assert.equal(start.status, 200);
      // The stream ends with the debate.
      const id = (await start.text()).match(/"id":"(debate_[^"]+)"/)![1];
      await waitForJobs(30_000, "debate");
      for (const width of [1280, 390]) {
        // bypassCSP: axe-core is injected as an inline script.
        const context = await browser.newContext({
          viewport: { width, height: width >= 1000 ? 800 : 844 },
          bypassCSP: true,
        });
        const [name, value] = ada.cookie.split("=");
        await context.addCookies([{ name, value, url: srv.url }]);
        const page = await context.newPage();
        await page.goto(`${srv.url}/debates/${encodeURIComponent(id)}`);
        await page.getByTestId("synthesis").waitFor();
        const text = await page.locator("main").innerText();
        for (const said of TURNS) assert.ok(text.includes(said.slice(0, 40)), said.slice(0, 40));
        assert.match(text, /Build protected lanes as a connected network/);
        const sideways = await page.evaluate(() =>
          document.documentElement.scrollWidth - globalThis.innerWidth
        );
        assert.equal(sideways, 0, `the debate scrolls sideways at ${width}`);
        assert.deepEqual(await axeViolations(page), [], `axe at ${width}`);
        await page.screenshot({
          path: `${SCREENSHOT_DIR}/look-debate-${width}.png`,
          fullPage: true,
        });
        await context.close();
      }
    } finally {
      await browser.close();
      await srv.close();
      await t.close();
      await llm.close();
    }
  },
});

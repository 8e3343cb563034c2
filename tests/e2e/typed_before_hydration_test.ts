/**
 * A person who starts typing or choosing in a form before the page's scripts have run
 * keeps what they typed and chose. Each page's island scripts are held back (they answer
 * only after the typing), then the islands hydrate, and each form acts on what was entered
 * before: the answer box posts the text, with what is typed next where the caret was left,
 * and the expert picked to invite is invited; on /ask the details stay and the idea keyword
 * is sent; on /debate the topic stays and a typed trait is added; a roundtable starts on
 * the typed topic and background with the rounds chosen and the experts picked by hand
 * (the picker opens for the choice made early), and the host's typed interjection goes to
 * the expert chosen; on /profile the typed name and bio are saved, the privacy switches
 * flipped early are saved, a key is created under the typed name with only the scope left
 * ticked, and the typed confirmation name opens the delete step for the choice made.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { getProfile } from "@/lib/profile/profiles.ts";
import { DEFAULT_SETTINGS, getSettings } from "@/lib/profile/settings.ts";
import { signInAs, waitForJobs } from "../helpers/app.ts";
import { browserTest } from "../helpers/browser.ts";
import { type FakeCall, startFakeLlm } from "../helpers/fake_llm.ts";
import { roundtableReply } from "../helpers/roundtable_llm.ts";
import { seedRoundtable } from "../helpers/roundtables.ts";

const roundtable = roundtableReply();

/** Question ideas for "Ideas" on /ask; a roundtable's panel, statements and minutes. */
function reply(call: FakeCall) {
  const prompt = call.messages.map((m) => m.content).join("\n");
  if (prompt.includes('{"ideas"')) {
    return {
      text: JSON.stringify({
        ideas: [1, 2, 3].map((i) => ({
          title: `How long should sourdough proof, idea ${i}?`,
          description: `Idea ${i}.`,
          tags: ["sourdough"],
        })),
      }),
    };
  }
  return roundtable(call);
}

// The fake model listens before the app is made (its address goes in the app's env).
const llm = startFakeLlm(reply);

/** A page of `path` whose island scripts wait for `typed()`: the form is the server's. */
async function heldPage(
  browser: Browser,
  url: string,
  cookie: string,
  path: string,
): Promise<{ page: Page; hydrate: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const [name, value] = cookie.split("=");
  await context.addCookies([{ name, value, url }]);
  const page = await context.newPage();
  let release!: () => void;
  const typed = new Promise<void>((r) => release = r);
  let held = 0;
  await page.route(/\/island_\w+\.js$/, async (route) => {
    held++;
    await typed;
    await route.continue();
  });
  await page.goto(`${url}${path}`, { waitUntil: "domcontentloaded" });
  return {
    page,
    hydrate: async () => {
      assert.equal(
        await page.locator('parley-island[data-hydrated="true"]').count(),
        0,
        `${path}: no island had hydrated while the text was typed`,
      );
      release();
      await page.waitForSelector('html[data-islands="ready"]');
      assert.ok(held > 0, `${path}: the island scripts were held back`);
    },
  };
}

browserTest(
  "text typed and choices made in a form before its island hydrates are kept and acted on",
  async ({ t, srv, browser }) => {
    const { user: host, cookie } = await signInAs(t, "Early Typist");
    try {
      // The answer box (MessageForm): the typed answer is posted. The expert picked in the
      // panel's invite select (ExpertPanel) is the one invited.
      {
        const q = await createQuestion(t.kv, {
          title: "Does an early keystroke survive hydration?",
          description: "Type before the scripts arrive.",
          author: { id: host.id, name: host.name, avatar: null },
          createdBy: "user",
        });
        const { page, hydrate } = await heldPage(browser, srv.url, cookie, `/questions/${q.id}`);
        const invitee = page.getByLabel("Invite an expert");
        await invitee.selectOption({ index: 2 });
        const picked = await invitee.inputValue();
        assert.ok(picked, "an expert is picked");
        const box = page.getByLabel("Your answer");
        await box.fill("Typed while the scripts were still on their way.");
        // The caret is moved back after "Typed"; the next keystrokes land there.
        await box.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(5, 5));
        await hydrate();
        assert.equal(await box.inputValue(), "Typed while the scripts were still on their way.");
        await page.keyboard.type(" early");
        const answer = "Typed early while the scripts were still on their way.";
        assert.equal(await box.inputValue(), answer);
        const invite = page.getByRole("button", { name: "Invite", exact: true });
        assert.ok(await invite.isEnabled(), "Invite is enabled for the expert picked early");
        const invited = page.waitForRequest((r) => r.url().endsWith("/invite"));
        await invite.click();
        assert.equal((await invited).postDataJSON().expertId, picked);
        await page.getByText("was invited and will answer here").waitFor();
        await Promise.all([
          page.waitForURL(/posted=/),
          page.getByRole("button", { name: "Post answer" }).click(),
        ]);
        await page.getByText(answer).first().waitFor();
        await page.context().close();
      }

      // /ask: the details (MarkdownField) stay; the idea keyword (AskIdeas) is sent.
      {
        const { page, hydrate } = await heldPage(browser, srv.url, cookie, "/ask");
        await page.locator("#description").fill("Details typed early.");
        await page.getByLabel("Need an idea?").fill("sourdough");
        await hydrate();
        assert.equal(await page.locator("#description").inputValue(), "Details typed early.");
        assert.equal(await page.getByLabel("Need an idea?").inputValue(), "sourdough");
        const ideas = page.getByRole("button", { name: "Ideas", exact: true });
        assert.ok(await ideas.isEnabled(), "/ask: Ideas is enabled for the typed keyword");
        await ideas.click();
        await page.getByTestId("idea").first().waitFor();
        const asked = llm.calls.filter((c) =>
          c.messages.some((m) => m.content.includes('{"ideas"'))
        );
        assert.equal(asked.length, 1);
        assert.match(asked[0].messages.map((m) => m.content).join("\n"), /sourdough/);
        await page.context().close();
      }

      // /debate: the topic (DebateLive) over the linked one stays; a typed trait is added.
      {
        const { page, hydrate } = await heldPage(
          browser,
          srv.url,
          cookie,
          `/debate?topic=${encodeURIComponent("The linked topic")}`,
        );
        const topic = page.getByLabel("Topic", { exact: true });
        assert.equal(await topic.inputValue(), "The linked topic");
        await topic.fill("Should towns keep their libraries open late?");
        await page.locator("#agent-traits-input").fill("patient");
        await hydrate();
        assert.equal(await topic.inputValue(), "Should towns keep their libraries open late?");
        await page.getByTestId("agent-traits").getByRole("button", { name: "Add" }).click();
        await page.getByTestId("agent-traits").getByRole("button", { name: "Remove patient" })
          .waitFor();
        await page.context().close();
      }

      // /roundtables: the typed topic and background, the rounds chosen and "Choose them
      // myself" (RoundtableStart) start the roundtable with the experts picked.
      {
        const { page, hydrate } = await heldPage(browser, srv.url, cookie, "/roundtables");
        await page.getByLabel("Topic", { exact: true }).fill("Should buses be free at night?");
        await page.getByLabel("Background (optional)").fill("Our town runs six night lines.");
        await page.getByLabel("Discussion rounds after the opening").selectOption("4");
        await page.getByLabel("Choose them myself").check();
        await hydrate();
        assert.equal(
          await page.getByLabel("Background (optional)").inputValue(),
          "Our town runs six night lines.",
        );
        const picker = page.getByTestId("roundtable-picker");
        assert.ok(await picker.isVisible(), "the picker is open for the choice made early");
        const experts = picker.getByRole("checkbox");
        for (const i of [0, 1, 2]) await experts.nth(i).check();
        const expertIds = await Promise.all(
          [0, 1, 2].map((i) => experts.nth(i).getAttribute("value")),
        );
        // Still shown after the picker's renders.
        assert.equal(
          await page.getByLabel("Discussion rounds after the opening").inputValue(),
          "4",
        );
        const sent = page.waitForRequest((r) =>
          r.method() === "POST" && new URL(r.url()).pathname === "/api/roundtables"
        );
        await page.getByRole("button", { name: "Start the roundtable" }).click();
        const body = (await sent).postDataJSON();
        assert.equal(body.topic, "Should buses be free at night?");
        assert.equal(body.background, "Our town runs six night lines.");
        assert.equal(body.rounds, 4);
        assert.deepEqual(body.expertIds, expertIds);
        await page.waitForURL(/\/roundtables\/rt_/);
        await page.context().close();
      }

      // A running roundtable's page: the host's typed words (RoundtableLive) are sent, to
      // the expert chosen.
      {
        const id = await seedRoundtable(t.kv, host.id, "Night buses");
        const { page, hydrate } = await heldPage(browser, srv.url, cookie, `/roundtables/${id}`);
        const words = page.getByLabel("Your question or remark");
        await words.fill("Who rides them after midnight?");
        await page.getByLabel("Who should answer").selectOption({ label: "Ada Lindqvist" });
        await hydrate();
        assert.equal(await words.inputValue(), "Who rides them after midnight?");
        const sent = page.waitForRequest((r) => r.url().endsWith("/interject"));
        await page.getByRole("button", { name: "Interject" }).click();
        assert.equal((await sent).postDataJSON().directTo, "ada");
        await page.getByTestId("interject-note")
          .getByText("Sent. Ada Lindqvist will answer you next.").waitFor();
        await page.context().close();
      }

      // /profile: name and bio (ProfileEditor), two privacy switches (PrivacySettings), a
      // key's name and scopes (AgentKeysPanel), the confirmation name and what becomes of
      // the posts (DeleteAccountForm), all entered before the scripts ran.
      {
        const { page, hydrate } = await heldPage(browser, srv.url, cookie, "/profile");
        await page.locator("#pf-displayName").fill("Early Typist Renamed");
        await page.locator("#pf-bio").fill("A bio typed before the scripts arrived.");
        const activityPrivate = page.getByRole("group", { name: "Activity feed" })
          .getByLabel("Only me");
        await activityPrivate.check();
        const panelSwitch = page.getByLabel(/Let the AI expert panel discuss/);
        await panelSwitch.uncheck();
        await page.getByLabel("Key name").fill("early agent");
        await page.getByLabel(/^write —/).uncheck();
        await page.getByLabel("Delete them").check();
        await page.getByLabel(/To confirm, type/).fill("Early Typist");
        // The privacy switches are saved once the island runs, with no further click.
        const privacySaved = page.waitForResponse((r) =>
          r.request().method() === "PUT" && r.url().endsWith("/api/profile/settings")
        );
        await hydrate();
        assert.equal((await privacySaved).status(), 200);
        assert.deepEqual(await getSettings(t.kv, host.id), {
          ...DEFAULT_SETTINGS,
          activityVisibility: "private",
          expertPanel: false,
        });
        await page.getByText("Saved.", { exact: true }).waitFor();
        assert.ok(await activityPrivate.isChecked());
        assert.ok(!(await panelSwitch.isChecked()));
        assert.equal(
          await page.locator("#pf-bio").inputValue(),
          "A bio typed before the scripts arrived.",
        );
        await page.getByRole("button", { name: "Save profile" }).click();
        await page.getByText("Profile saved.").waitFor();
        const saved = await getProfile(t.kv, host.id);
        assert.equal(saved?.displayName, "Early Typist Renamed");
        assert.equal(saved?.bio, "A bio typed before the scripts arrived.");

        const keyMade = page.waitForRequest((r) => r.url().endsWith("/api/profile/agent-keys"));
        await page.getByRole("button", { name: "Create key" }).click();
        assert.deepEqual((await keyMade).postDataJSON().scopes, ["read"]);
        await page.getByTestId("key-list").getByText("early agent", { exact: true }).waitFor();

        await page.getByTestId("delete-account").click();
        await page.getByTestId("delete-account-confirm").waitFor();
        assert.match(
          await page.getByRole("alertdialog").innerText(),
          /Your questions and answers will be deleted\./,
          "the confirmation is for the choice made early",
        );
        await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
        await page.getByTestId("delete-account-form").waitFor();
        await page.context().close();
      }
    } finally {
      await waitForJobs(15_000); // the roundtable and invitation started, before the model goes
      await llm.close();
    }
  },
  { env: llm.env },
);

/**
 * Display names that pass for someone else, or carry markup and invisible characters, never
 * reach the site: a provider's name goes through the display-name rules at sign-in (cleaned,
 * or replaced by "Member xxxx"), and `PATCH /api/profile/me` refuses reserved names and
 * words mixing look-alike letters of two scripts with a 400 that says why.
 */
import assert from "node:assert/strict";
import { createTestApp, jsonWrite, signInAs } from "../helpers/app.ts";
import { localModeServer } from "../helpers/oauth.ts";
import { localSignIn, step } from "../helpers/processes.ts";

const CYRILLIC_A = "\u0410";
const RESERVED = "is reserved: it names Parley, its moderators or an AI voice";

Deno.test({
  name:
    "names from a provider at sign-in are cleaned, or replaced by a derived name when they fail the rules",
  async fn() {
    const srv = await localModeServer();
    try {
      const nameAfterSignIn = async (typed: string): Promise<string> => {
        const jar = await localSignIn(srv.origin, "provider_c", { name: typed });
        const res = await step(srv.origin, jar, "/api/profile/me");
        assert.equal(res.status, 200, typed);
        return (await res.json()).displayName;
      };
      // Markup becomes plain words; invisible and direction characters go.
      assert.equal(
        await nameAfterSignIn("<img src=x onerror=alert(1)>"),
        "img src x onerror alert 1",
      );
      assert.equal(await nameAfterSignIn("Eve\u200b Mal\u202eory"), "Eve Malory");
      assert.equal(await nameAfterSignIn("Zoë O'Brien"), "Zoë O Brien");
      // Names that pass for staff or an AI voice fall back to "Member" and 4 hex digits.
      const fallbacks = [];
      for (const typed of ["Moderator", `${CYRILLIC_A}dmin`, "PARLEY", "Omar Haddad"]) {
        const name = await nameAfterSignIn(typed);
        assert.match(name, /^Member [0-9a-f]{4}$/, typed);
        fallbacks.push(name);
      }
      assert.equal(new Set(fallbacks).size, fallbacks.length, "derived names differ per account");
      // An ordinary name is kept as given.
      assert.equal(await nameAfterSignIn("Barbara Liskov"), "Barbara Liskov");
    } finally {
      await srv.close();
    }
  },
});

Deno.test("PATCH /api/profile/me refuses reserved names and mixed-script look-alikes with a message that says why", async () => {
  const t = await createTestApp();
  try {
    const { cookie } = await signInAs(t, "Ada");
    const patch = (displayName: string) =>
      t.request("/api/profile/me", {
        method: "PATCH",
        headers: jsonWrite(t, cookie),
        body: JSON.stringify({ displayName }),
      });
    const refused: [string, string][] = [
      ["Moderator", RESERVED],
      ["moderator", RESERVED],
      ["ADMIN", RESERVED],
      [`${CYRILLIC_A}dmin`, RESERVED],
      ["Administrator", RESERVED],
      ["Parley", RESERVED],
      ["P.a.r.l.e.y", RESERVED],
      ["Omar Haddad", RESERVED],
      ["Lucia Ferrer", RESERVED],
      ["Vera Quell", RESERVED],
      [
        "P\u0430ul Smith",
        'mixes look-alike letters from different scripts ("\u0430" is Cyrillic); write each word in one script',
      ],
      [
        "Ad\u03bfra",
        'mixes look-alike letters from different scripts ("\u03bf" is Greek); write each word in one script',
      ],
    ];
    for (const [displayName, message] of refused) {
      const res = await patch(displayName);
      assert.equal(res.status, 400, displayName);
      const body = await res.json();
      assert.equal(body.error, "Invalid profile");
      assert.deepEqual(
        body.issues.map((i: { path: string; message: string }) => [i.path, i.message]),
        [["displayName", message]],
        displayName,
      );
    }
    const me = await (await t.request("/api/profile/me", { headers: { cookie } })).json();
    assert.equal(me.displayName, "Ada");
    // Other scripts, whole words in one script each, and names merely containing a
    // reserved word still pass.
    for (
      const displayName of ["Анна", "Ivan Иванов", "山田 太郎", "Moderator fan", "Admiral Ada"]
    ) {
      const res = await patch(displayName);
      assert.equal(res.status, 200, displayName);
      await res.body?.cancel();
      const now = await (await t.request("/api/profile/me", { headers: { cookie } })).json();
      assert.equal(now.displayName, displayName);
    }
  } finally {
    await t.close();
  }
});

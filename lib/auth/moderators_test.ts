/** Who is a moderator under MODERATORS. */
import assert from "node:assert/strict";
import { LOCAL_MODERATOR_EMAIL, parseConfig } from "@/lib/config.ts";
import { isModerator } from "@/lib/auth/moderators.ts";

Deno.test("isModerator() matches a listed user id or verified email (emails ignore case); nobody without MODERATORS", () => {
  const config = parseConfig({ MODERATORS: " u_1 , Mod@Example.com,, " });
  // Local mode (no providers configured) adds the ready moderator account ("Morgan Moderator")'s email.
  assert.deepEqual(config.moderators, ["u_1", "mod@example.com", LOCAL_MODERATOR_EMAIL]);
  assert.equal(isModerator(config, { id: "u_1", verifiedEmails: [] }), true);
  assert.equal(isModerator(config, { id: "u_2", verifiedEmails: ["MOD@example.com"] }), true);
  assert.equal(isModerator(config, { id: "u_3", verifiedEmails: ["other@example.com"] }), false);
  assert.equal(isModerator(config, null), false);
  const none = parseConfig({ LOCAL_MODE: "off", APP_SECRET: "s".repeat(40) });
  assert.deepEqual(none.moderators, []);
  assert.equal(isModerator(none, { id: "u_1", verifiedEmails: [] }), false);
});

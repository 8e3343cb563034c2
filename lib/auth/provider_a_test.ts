/** Profiles from provider_a normalize to what Parley shows. */
import assert from "node:assert/strict";
import { providerA } from "@/lib/auth/provider_a.ts";

Deno.test("providerA.normalize() falls back to the email's name, keeps an https avatar and clips the bio to 200", () => {
  const a = providerA.normalize(providerA.profileSchema.parse({
    userId: 99,
    name: "  ",
    email: "someone@a.test",
    avatar: "https://a.test/x.png",
    bio: "",
    selfIntroduction: "x".repeat(500),
  }));
  assert.equal(a.providerAccountId, "99");
  assert.equal(a.name, "someone");
  assert.equal(a.avatar, "https://a.test/x.png");
  assert.equal(a.bio.length, 200);
});

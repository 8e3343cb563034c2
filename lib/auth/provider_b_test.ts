/** Profiles from provider_b normalize to what Parley shows. */
import assert from "node:assert/strict";
import { providerB } from "@/lib/auth/provider_b.ts";

Deno.test("providerB.normalize() falls back to the login and drops a non-http(s) avatar", () => {
  const b = providerB.normalize(providerB.profileSchema.parse({
    id: 12,
    login: "octo",
    name: null,
    email: null,
    avatar_url: "javascript:alert(1)",
  }));
  assert.deepEqual(b, {
    providerAccountId: "12",
    name: "octo",
    email: null,
    avatar: null,
    bio: "",
  });
});

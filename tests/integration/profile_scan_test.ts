/**
 * No public profile, page or JSON a visitor can read contains an email address or a
 * provider token — even for users who signed in with providers that gave both.
 */
import assert from "node:assert/strict";
import type { ProviderId } from "@/lib/config.ts";
import { appWithFakeProviders, FAKE_TOKENS, signInThrough } from "../helpers/oauth.ts";

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+/;
const TOKENS: string[] = Object.values(FAKE_TOKENS).flatMap((
  t,
): (string | null)[] => [t.access, t.refresh])
  .filter((s): s is string => !!s);

Deno.test("public profiles and pages carry no email address and no token", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const origin = t.services.config.appOrigin;
    const people: { id: string; cookie: string }[] = [];
    for (const p of ["provider_a", "provider_b", "provider_c"] as ProviderId[]) {
      const { jar } = await signInThrough(t, p);
      const session = await (await t.request("/api/auth/session", {
        headers: { cookie: jar.header() },
      })).json();
      people.push({ id: session.user.id, cookie: jar.header() });
    }
    // The store does hold their emails: the scan below would catch a leak.
    let storedEmails = 0;
    for await (const e of t.kv.list({ prefix: ["users"] })) {
      if (EMAIL.test(JSON.stringify(e.value))) storedEmails++;
    }
    assert.equal(storedEmails, 3);
    // Each asks and answers, so their public pages have content.
    const questionIds: string[] = [];
    for (const who of people) {
      const res = await t.request("/api/questions", {
        method: "POST",
        headers: { cookie: who.cookie, origin, "content-type": "application/json" },
        body: JSON.stringify({ title: "A question from a provider user", tags: ["scan"] }),
      });
      assert.equal(res.status, 201);
      questionIds.push((await res.json()).id);
    }
    for (const [i, who] of people.entries()) {
      const res = await t.request(`/api/questions/${questionIds[(i + 1) % 3]}/messages`, {
        method: "POST",
        headers: { cookie: who.cookie, origin, "content-type": "application/json" },
        body: JSON.stringify({ content: "An answer from a provider user" }),
      });
      assert.equal(res.status, 201);
    }
    const paths = [
      "/",
      "/?sort=hot",
      "/api/questions",
      ...questionIds.flatMap((id) => [`/questions/${id}`, `/api/questions/${id}`]),
      ...people.flatMap((p) => [
        `/u/${p.id}`,
        `/u/${p.id}?tab=answers`,
        `/api/profile/public/${p.id}`,
        `/api/profile/public/${p.id}/activity?type=questions`,
        `/api/profile/public/${p.id}/activity?type=answers`,
      ]),
    ];
    let scanned = 0;
    // Read as a visitor and as each signed-in user (someone else's profile).
    for (const cookie of [undefined, ...people.map((p) => p.cookie)]) {
      for (const path of paths) {
        const res = await t.request(path, { headers: cookie ? { cookie } : {} });
        assert.equal(res.status, 200, path);
        const body = await res.text();
        const email = EMAIL.exec(body)?.[0];
        assert.equal(email, undefined, `email ${email} in ${path}`);
        for (const token of TOKENS) assert.ok(!body.includes(token), `token in ${path}`);
        scanned++;
      }
    }
    assert.ok(scanned >= 80, `scanned ${scanned} responses`);
  } finally {
    await close();
  }
});

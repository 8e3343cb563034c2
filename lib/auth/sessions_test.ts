import assert from "node:assert/strict";
import { countingKv } from "../../tests/helpers/kv_calls.ts";
import { sha256Hex } from "../ids.ts";
import { keys } from "../kv/keys.ts";
import { createSession, SESSION_TTL_MS, userForSession } from "./sessions.ts";
import { createUser } from "./users.ts";

async function withUser(run: (kv: Deno.Kv, userId: string) => Promise<void>) {
  const kv = await Deno.openKv(":memory:");
  try {
    const user = await createUser(kv, {
      provider: "provider_a",
      name: "Ada",
      image: null,
      bio: "",
      email: null,
    });
    await run(kv, user.id);
  } finally {
    kv.close();
  }
}

Deno.test("a session token names its user, and a signed-in lookup is one getMany", async () => {
  await withUser(async (kv, userId) => {
    const { token } = await createSession(kv, userId, "provider_a");
    assert.ok(token.endsWith(`.${userId}`));
    const log: string[] = [];
    const found = await userForSession(countingKv(kv, log), token);
    assert.equal(found?.user.id, userId);
    assert.equal(found?.user.name, "Ada");
    // The session, the user, the profile and any sanction: one round trip.
    assert.deepEqual(log, ["getMany(4× sessions)"]);
  });
});

Deno.test("a token whose user part is changed is refused, even naming a real user", async () => {
  await withUser(async (kv, userId) => {
    const other = await createUser(kv, {
      provider: "provider_b",
      name: "Grace",
      image: null,
      bio: "",
      email: null,
    });
    const { token } = await createSession(kv, userId, "provider_a");
    const forged = token.slice(0, token.indexOf(".") + 1) + other.id;
    assert.equal(await userForSession(kv, forged), null);
    assert.equal(await userForSession(kv, `${token}x`), null);
    assert.equal((await userForSession(kv, token))?.user.id, userId);
  });
});

Deno.test("a token from before the user part (random only) still signs in, with a second read", async () => {
  await withUser(async (kv, userId) => {
    const legacy = "A".repeat(43);
    const now = Date.now();
    await kv.set(keys.session(await sha256Hex(legacy)), {
      userId,
      provider: "provider_a",
      createdAt: now,
      renewedAt: now,
      expiresAt: now + SESSION_TTL_MS,
    });
    const log: string[] = [];
    const found = await userForSession(countingKv(kv, log), legacy);
    assert.equal(found?.user.id, userId);
    assert.deepEqual(log, ["get(sessions)", "getMany(3× users)"]);
  });
});

/**
 * Seeds what the Deploy-like process tests cannot make through HTTP — a user with the AI
 * avatar on and a question asked two minutes ago — into the store at `Deno.args[0]`, and
 * prints `{avaId, questionId}` as JSON. Run under the same Deno as the instances (KV values
 * written by a newer Deno cannot be read by an older one): `testDeno()`.
 */
import { createUser } from "@/lib/auth/users.ts";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { openKv } from "@/lib/kv/open.ts";
import { saveSettings } from "@/lib/profile/settings.ts";

const kv = await openKv(Deno.args[0]);
const ava = await createUser(kv, {
  provider: "provider_a",
  name: "Ava",
  image: null,
  bio: "Gardener who answers.",
  email: null,
});
await saveSettings(kv, ava.id, { aiAvatar: true });
const bob = await createUser(kv, {
  provider: "provider_b",
  name: "Bob",
  image: null,
  bio: "",
  email: null,
});
const q = await createQuestion(kv, {
  title: "When should tomatoes be planted?",
  description: "Outdoors, in a cool climate.",
  author: { id: bob.id, name: bob.name, avatar: null },
  createdBy: "user",
}, { now: Date.now() - 120_000 });
kv.close();
console.log(JSON.stringify({ avaId: ava.id, questionId: q.id }));

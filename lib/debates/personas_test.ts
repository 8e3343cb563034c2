/** Opponent personas: at least five, complete, chosen from the topic, stable. */
import assert from "node:assert/strict";
import { choosePersona, PERSONAS } from "@/lib/debates/personas.ts";

Deno.test("PERSONAS holds at least five complete personas with distinct ids", () => {
  assert.ok(PERSONAS.length >= 5);
  assert.equal(new Set(PERSONAS.map((p) => p.id)).size, PERSONAS.length);
  for (const p of PERSONAS) {
    for (
      const field of ["id", "name", "avatar", "title", "personality", "stance", "bio"] as const
    ) {
      assert.ok(p[field].trim().length > 0, `${p.id}.${field}`);
    }
    assert.match(p.avatar, /^data:image\/svg\+xml,/);
  }
});

Deno.test("choosePersona() picks the opponent whose subjects the topic mentions", () => {
  assert.equal(choosePersona("Will AI replace software engineers?").id, "futurist");
  assert.equal(choosePersona("Is nuclear energy the answer to climate change?").id, "ecologist");
  assert.equal(choosePersona("Should income tax be flat?").id, "economist");
  assert.equal(choosePersona("Is mass surveillance ever justified by privacy law?").id, "ethicist");
  assert.equal(choosePersona("Do diet studies replicate?").id, "skeptic");
  assert.equal(choosePersona("Should schools teach Latin and history?").id, "historian");
});

Deno.test("choosePersona() gives an unmatched topic a stable opponent and spreads topics across personas", () => {
  const topic = "Pineapple on pizza";
  assert.equal(choosePersona(topic).id, choosePersona(`  ${topic.toUpperCase()} `).id);
  const seen = new Set(
    ["Pineapple on pizza", "Cats or dogs", "Tabs or spaces", "Morning or night", "Tea or coffee"]
      .map((t) => choosePersona(t).id),
  );
  assert.ok(seen.size >= 2, "different topics meet different opponents");
});

/**
 * Accuracy of the served OpenAPI document for generated clients: optional
 * query parameters stay optional, defaulted request fields are never `required`, and a
 * bad query parameter's `issues[].path` names the parameter.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";
import { agentCall, agentKey, member } from "../helpers/community.ts";

type Json = Record<string, unknown>;

Deno.test("openapi: GET /api/favorites documents targetIds as optional, as docs/interface.md#favorites behaves", async () => {
  const t = await createTestApp();
  try {
    const doc = await (await t.request("/api/openapi.json")).json();
    const params = doc.paths["/api/favorites"].get.parameters as Json[];
    const targetIds = params.find((p) => p.name === "targetIds")!;
    assert.equal(targetIds.in, "query");
    assert.equal(targetIds.required, false);
  } finally {
    await t.close();
  }
});

Deno.test("openapi: defaulted request fields are not required, in query parameters or bodies", async () => {
  const t = await createTestApp();
  try {
    const doc = await (await t.request("/api/openapi.json")).json();
    const schemas = doc.components.schemas as Record<string, Json>;
    const resolve = (s: Json): Json =>
      typeof s.$ref === "string" ? schemas[s.$ref.split("/").pop()!] : s;
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(item as Record<string, Json>)) {
        for (const p of (op.parameters ?? []) as Json[]) {
          const schema = p.schema as Json;
          if ("default" in schema) {
            assert.equal(p.required, false, `${method} ${path} ?${p.name}`);
            checked++;
          }
        }
        const body = (op.requestBody as Json | undefined)?.content as Json | undefined;
        const schema = (body?.["application/json"] as Json | undefined)?.schema as Json;
        if (!schema) continue;
        const obj = resolve(schema);
        const required = (obj.required ?? []) as string[];
        for (const [name, prop] of Object.entries((obj.properties ?? {}) as Record<string, Json>)) {
          // openapi-typescript types a property with a `default` as always present.
          assert.ok(!("default" in prop), `${method} ${path} body.${name} has a default`);
          if (String(prop.description ?? "").includes("Default:")) {
            assert.ok(!required.includes(name), `${method} ${path} body.${name}`);
            checked++;
          }
        }
      }
    }
    assert.ok(checked >= 3, `checked ${checked} defaulted fields`);
    // The ones generated clients tripped on.
    const likes = resolve(
      doc.paths["/api/likes"].post.requestBody.content["application/json"].schema,
    );
    assert.ok(!(likes.required as string[]).includes("voteType"));
  } finally {
    await t.close();
  }
});

Deno.test("openapi: a bad query parameter's issues[].path names the parameter, not (body)", async () => {
  const t = await createTestApp();
  try {
    const feed = await (await t.request("/api/questions?page=0&sort=sideways")).json();
    assert.deepEqual(feed.issues.map((i: Json) => i.path).sort(), ["page", "sort"]);
    const ada = await member(t, "Ada");
    const key = await agentKey(t, ada);
    const agent = await (await agentCall(t, key, "/api/agent/questions?limit=x")).json();
    assert.deepEqual(agent.issues.map((i: Json) => i.path), ["limit"]);
    const fav = await (await t.request("/api/favorites?targetType=nope&targetIds=a", {
      headers: { cookie: ada.cookie },
    })).json();
    assert.deepEqual(fav.issues.map((i: Json) => i.path), ["targetType"]);
  } finally {
    await t.close();
  }
});

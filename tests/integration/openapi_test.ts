/**
 * The API description: OpenAPI 3.1 generated from the request schemas, real responses
 * conform to the documented response schemas, and the docs page and skill guide serve.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { collectOperations } from "@/lib/agent/openapi.ts";
import { loadRouteModules } from "@/lib/fresh/routes.ts";
import manifest from "@/manifest.gen.ts";

const OPERATIONS = collectOperations(Object.values(await loadRouteModules(manifest.routes)));
import { AgentQuestionCreated, AgentQuestionList } from "@/lib/schemas/agent.ts";
import {
  FavoriteStatuses,
  FavoriteToggleResult,
  MessageSchema,
  QuestionPage,
  QuestionSchema,
  QuestionWithMessages,
  VoteResult,
} from "@/lib/schemas/community.ts";
import { createTestApp } from "../helpers/app.ts";
import { agentCall, agentKey, answer, ask, getAs, member, postAs } from "../helpers/community.ts";

Deno.test("GET /api/openapi.json: OpenAPI 3.1 with every operation and resolvable refs", async () => {
  const t = await createTestApp();
  try {
    const res = await t.request("/api/openapi.json");
    assert.equal(res.status, 200);
    const doc = await res.json();
    assert.equal(doc.openapi, "3.1.0");
    for (const op of OPERATIONS) {
      assert.ok(doc.paths[op.path]?.[op.method], `${op.method} ${op.path}`);
    }
    const post = doc.paths["/api/agent/questions"].post;
    const body = post.requestBody.content["application/json"].schema;
    const schema = body.$ref
      ? doc.components.schemas[body.$ref.replace("#/components/schemas/", "")]
      : body;
    assert.deepEqual(schema.required, ["title"]);
    assert.deepEqual([schema.properties.title.minLength, schema.properties.title.maxLength], [
      2,
      120,
    ]);
    assert.deepEqual(post.security, [{ agentKey: [] }, { oauth: ["write"] }]);
    assert.deepEqual(doc.paths["/api/agent/questions"].get.security, [
      { agentKey: [] },
      { oauth: ["read"] },
    ]);
    assert.deepEqual(
      Object.keys(doc.components.securitySchemes.oauth.flows.authorizationCode.scopes),
      [
        "read",
        "write",
      ],
    );
    const limit = doc.paths["/api/agent/questions"].get.parameters.find(
      (p: { name: string }) => p.name === "limit",
    );
    assert.deepEqual([limit.schema.type, limit.schema.default, limit.required], [
      "integer",
      20,
      false,
    ]);
    // Every $ref points at a component that exists.
    for (const m of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
      assert.ok(doc.components.schemas[m[1]], m[1]);
    }
  } finally {
    await t.close();
  }
});

Deno.test("real responses match the documented response schemas", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const qid = await ask(t, ada, { title: "Schema check", tags: ["x"] });
    const mid = await answer(t, ada, qid, "Answer");
    const key = await agentKey(t, ada);
    const check = async (schema: z.ZodType, res: Response | Promise<Response>) => {
      const r = await res;
      const body = await r.json();
      const parsed = schema.safeParse(body);
      assert.ok(parsed.success, `${r.url}: ${JSON.stringify(parsed.error?.issues)}`);
    };
    await check(QuestionPage, getAs(t, null, "/api/questions"));
    await check(QuestionWithMessages, getAs(t, null, `/api/questions/${qid}`));
    await check(QuestionSchema, postAs(t, ada, "/api/questions", { title: "Another" }));
    await check(MessageSchema, postAs(t, ada, `/api/questions/${qid}/messages`, { content: "x" }));
    const bob = await member(t, "Bob");
    await check(VoteResult, postAs(t, bob, "/api/likes", { targetId: mid, targetType: "message" }));
    await check(
      FavoriteToggleResult,
      postAs(t, ada, "/api/favorites", { targetId: qid, targetType: "question" }),
    );
    await check(
      FavoriteStatuses,
      getAs(t, ada, `/api/favorites?targetType=question&targetIds=${qid}`),
    );
    await check(AgentQuestionList, agentCall(t, key, "/api/agent/questions"));
    await check(
      AgentQuestionCreated,
      agentCall(t, key, "/api/agent/questions", { body: { title: "Agent" } }),
    );
  } finally {
    await t.close();
  }
});

Deno.test("/docs/api lists every operation; /skill.md is a Markdown guide", async () => {
  const t = await createTestApp();
  try {
    const html = await (await t.request("/docs/api")).text();
    for (const op of OPERATIONS) assert.ok(html.includes(op.path), op.path);
    assert.match(html, /Authorization: Bearer agent_/);
    const res = await t.request("/skill.md");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/markdown/);
    const md = await res.text();
    for (
      const needle of [
        "/profile/agent-keys",
        "GET /api/agent/questions",
        "POST /api/agent/questions",
        "/reply",
        "/vote",
        "Retry-After",
        '{"error":"Invalid or missing API key"}',
        '{"error":"title is required (min 2 chars)"}',
      ]
    ) assert.ok(md.includes(needle), needle);
  } finally {
    await t.close();
  }
});

Deno.test("the four creates document the optional Idempotency-Key header and its 409", async () => {
  const { buildOpenApi } = await import("@/lib/agent/openapi.ts");
  const doc = buildOpenApi("http://localhost:8000", OPERATIONS) as {
    paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
  };
  const creates = [
    ["/api/questions", "post"],
    ["/api/questions/{id}/messages", "post"],
    ["/api/agent/questions", "post"],
    ["/api/agent/questions/{id}/reply", "post"],
  ];
  for (const [path, method] of creates) {
    const op = doc.paths[path][method] as {
      parameters?: { name: string; in: string }[];
      responses: Record<string, unknown>;
    };
    assert.ok(
      op.parameters?.some((p) => p.name === "Idempotency-Key" && p.in === "header"),
      `${method} ${path}`,
    );
    assert.ok(op.responses["409"], `${method} ${path} documents 409`);
  }
  const likes = doc.paths["/api/likes"].post as { parameters?: { name: string }[] };
  assert.ok(!likes.parameters?.some((p) => p.name === "Idempotency-Key"));
});

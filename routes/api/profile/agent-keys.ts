import { createAgentKey, listAgentKeys, revokeAgentKey } from "@/lib/agent/keys.ts";
import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { orThrow } from "@/lib/http/outcome.ts";
import {
  AgentKeyList,
  CreatedAgentKeySchema,
  NewAgentKeyBody,
  RevokeAgentKeyQuery,
} from "@/lib/schemas/agent.ts";
import { asObject, parseInput } from "@/lib/schemas/parse.ts";
import { Ok } from "@/lib/schemas/profile.ts";
import { MAX_AGENT_KEYS } from "@/lib/input_limits.ts";
import { SCOPES } from "@/lib/agent/scopes.ts";
import { define } from "@/lib/state.ts";

/**
 * The signed-in user's agent API keys (docs/interface.md#api-keys):
 * GET → {keys, max}; POST {name?, scopes?} → 201 {key, info} (the key is shown this once);
 * DELETE ?id=key_… → {ok: true}.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const user = requireUser(ctx.state.user);
    const list = await listAgentKeys(ctx.state.services.kv, user.id);
    return Response.json({ keys: list, max: MAX_AGENT_KEYS }, {
      headers: { "cache-control": "no-store" },
    });
  },
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const text = ctx.req.headers.get("content-length") === "0" ? {} : await readJson(ctx.req);
    const body = parseInput(NewAgentKeyBody, asObject(text));
    const { kv, now } = ctx.state.services;
    const { created } = orThrow(
      await createAgentKey(kv, user.id, body.name ?? "", now(), body.scopes ?? SCOPES),
      { limit: [409, `You already have ${MAX_AGENT_KEYS} API keys; revoke one first`] },
    );
    return Response.json(created, { status: 201, headers: { "cache-control": "no-store" } });
  },
  async DELETE(ctx) {
    const user = requireUser(ctx.state.user);
    const id = ctx.url.searchParams.get("id") ?? "";
    if (!id) throw new HttpError(400, "id is required");
    orThrow(await revokeAgentKey(ctx.state.services.kv, user.id, id), {
      not_found: [404, "No such API key"],
    });
    return Response.json({ ok: true });
  },
});

export const docs: OperationDoc[] = [
  {
    method: "get",
    path: "/api/profile/agent-keys",
    tag: "Agent keys",
    summary: "List your API keys (never the keys themselves)",
    auth: "session",
    responses: {
      "200": {
        description: "Your keys",
        schema: AgentKeyList,
        example: {
          keys: [{
            id: "key_52guKWMKZ9Wo",
            name: "research agent",
            prefix: "agent_VMoIFs…",
            scopes: ["read", "write"],
            createdAt: 1700000000000,
            lastUsedAt: null,
          }],
          max: MAX_AGENT_KEYS,
        },
      },
      "401": unauthorizedSession,
    },
  },
  {
    method: "post",
    path: "/api/profile/agent-keys",
    tag: "Agent keys",
    summary: "Create an API key (shown once)",
    description:
      `What the **Create key** button on /profile/agent-keys (and the Agent API keys section of /profile) calls. At most ${MAX_AGENT_KEYS} keys per user. Only a SHA-256 of the key is stored: copy \`key\` now. \`name\` is optional (default "Agent key"); \`scopes\` is optional (default both \`read\` and \`write\`: a read-only key cannot ask, reply, vote, edit or delete); an empty body is accepted.`,
    auth: "session",
    body: NewAgentKeyBody,
    responses: {
      "201": {
        description: "The key — copy it now",
        schema: CreatedAgentKeySchema,
        example: {
          key: "agent_VMoIFscJbIx4MTKnpd3ZBsxi02dFhdGV-AQY-Toc480",
          info: {
            id: "key_52guKWMKZ9Wo",
            name: "research agent",
            prefix: "agent_VMoIFs…",
            scopes: ["read", "write"],
            createdAt: 1700000000000,
            lastUsedAt: null,
          },
        },
      },
      "400": err("Bad name or scopes", "name must be at most 40 characters"),
      "401": unauthorizedSession,
      "409": err(`Already ${MAX_AGENT_KEYS} keys`),
    },
  },
  {
    method: "delete",
    path: "/api/profile/agent-keys",
    tag: "Agent keys",
    summary: "Revoke an API key",
    auth: "session",
    query: RevokeAgentKeyQuery,
    responses: {
      "200": { description: "Revoked", schema: Ok, example: { ok: true } },
      "400": err("No id", "id is required"),
      "401": unauthorizedSession,
      "404": err("No such key", "No such API key"),
    },
  },
];

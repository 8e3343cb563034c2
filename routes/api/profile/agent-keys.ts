import { createAgentKey, listAgentKeys, revokeAgentKey } from "@/lib/agent/keys.ts";
import { MAX_AGENT_KEYS } from "@/lib/shared.ts";
import { readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { orThrow } from "@/lib/http/outcome.ts";
import { requireUser } from "@/lib/http/auth.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { NewAgentKeyBody } from "@/lib/schemas/agent.ts";
import { asObject, parseInput } from "@/lib/schemas/parse.ts";
import type { AppState } from "@/lib/state.ts";

/**
 * The signed-in user's agent API keys (DESIGN.md §6):
 * GET → {keys, max}; POST {name?} → 201 {key, info} (the key is shown this once);
 * DELETE ?id=key_… → {ok: true}.
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const user = requireUser(ctx.state.user);
    const list = await listAgentKeys(ctx.state.services.kv, user.id);
    return Response.json({ keys: list, max: MAX_AGENT_KEYS }, {
      headers: { "cache-control": "no-store" },
    });
  },
  async POST(req, ctx) {
    const user = requireUser(ctx.state.user);
    const text = req.headers.get("content-length") === "0" ? {} : await readJson(req);
    const body = parseInput(NewAgentKeyBody, asObject(text));
    const { kv, now } = ctx.state.services;
    const { created } = orThrow(await createAgentKey(kv, user.id, body.name ?? "", now()), {
      limit: [409, `You already have ${MAX_AGENT_KEYS} API keys; revoke one first`],
    });
    return Response.json(created, { status: 201, headers: { "cache-control": "no-store" } });
  },
  async DELETE(_req, ctx) {
    const user = requireUser(ctx.state.user);
    const id = ctx.url.searchParams.get("id") ?? "";
    if (!id) throw new HttpError(400, "id is required");
    orThrow(await revokeAgentKey(ctx.state.services.kv, user.id, id), {
      not_found: [404, "No such API key"],
    });
    return Response.json({ ok: true });
  },
};

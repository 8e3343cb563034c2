import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { MODERATORS_ONLY, requireModerator } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { applySanction, MODERATOR_SANCTION, SELF_SANCTION } from "@/lib/http/sanction.ts";
import { AccountStandingSchema, SanctionBody } from "@/lib/schemas/moderation.ts";
import { define } from "@/lib/state.ts";

/** POST /api/mod/users/:id — silence, suspend or lift a person (moderators). */
export const handler = define.handlers({
  async POST(ctx) {
    const { services } = ctx.state;
    const mod = await requireModerator(services, ctx.state.user);
    const body = await parseBody(ctx.req, SanctionBody, { limit: 4 * 1024 });
    return Response.json(await applySanction(services, mod, ctx.params.id, body));
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/mod/users/{id}",
  tag: "Moderation",
  summary: "Silence, suspend or lift a person (moderators)",
  description:
    '`silence`: the person may read, but not post, edit, vote, favorite, flag, accept, invite an expert, start a debate or roundtable, interject, or set a new name, bio or picture — through pages, the API, agent keys, MCP, agent participation or their AI avatar; pages show them the reason and the end. `suspend`: all of that, and they are signed out everywhere, may not sign in (the sign-in page tells them why and until when) and their agent keys are refused (403 with `code: "suspended"`). `lift` ends either. `until` (ISO 8601; absent or null: until lifted) must be in the future; `reason` (1–500 characters) is shown to the person. Each action is in the moderation log. Moderators cannot be sanctioned, nor can a moderator sanction themself. The answer is the person\'s standing.',
  auth: "session",
  pathParams: [{ name: "id", description: "User id (`u_…`)" }],
  body: SanctionBody,
  responses: {
    "200": {
      description: "The person's standing after the action",
      schema: AccountStandingSchema,
      example: {
        userId: "u_9f2c",
        trust: "established",
        sanction: {
          action: "silence",
          reason: "Spam links in three answers",
          until: 1780272000000,
          at: 1779667200000,
          by: { id: "u_mod", name: "Mo" },
        },
      },
    },
    "400": err("Bad body, a past `until`, or yourself", SELF_SANCTION),
    "401": unauthorizedSession,
    "403": err(`Not a moderator (${MODERATORS_ONLY}), or the person is one`, MODERATOR_SANCTION),
    "404": err("No such person", "User not found"),
  },
}];

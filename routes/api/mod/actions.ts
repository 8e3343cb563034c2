import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { MODERATORS_ONLY, requireModerator } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { MOD_FAILURES, orThrow } from "@/lib/http/outcome.ts";
import { moderate } from "@/lib/moderation/moderation.ts";
import { OkResult } from "@/lib/schemas/community.ts";
import { ModActionBody } from "@/lib/schemas/moderation.ts";
import { define } from "@/lib/state.ts";

/** POST /api/mod/actions — hide, restore, dismiss or delete a post (moderators). */
export const handler = define.handlers({
  async POST(ctx) {
    const { services } = ctx.state;
    const mod = await requireModerator(services, ctx.state.user);
    const body = await parseBody(ctx.req, ModActionBody);
    orThrow(
      await moderate(services.kv, { ...body, moderator: { id: mod.id, name: mod.name } }, {
        now: services.now(),
      }),
      MOD_FAILURES,
    );
    return Response.json({ ok: true });
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/mod/actions",
  tag: "Moderation",
  summary: "Act on a post (moderators)",
  description:
    "`hide`: 404 to everyone but its author (who sees a banner) and moderators. `restore`: show it again. `dismiss`: the flags were unfounded (a post the flags hid is shown again). `delete`: the soft delete of the content lifecycle. Each action is logged and takes the post off the queue.",
  auth: "session",
  body: ModActionBody,
  responses: {
    "200": { description: "Done", schema: OkResult },
    "400": err("Bad body", 'action must be "hide", "restore", "dismiss" or "delete"'),
    "401": unauthorizedSession,
    "403": err("Not a moderator", MODERATORS_ONLY),
    "404": err("No such post", "Post not found"),
    "409": err(
      "The post was deleted: a deletion is final",
      "This post was deleted, and a deletion cannot be undone",
    ),
  },
}];

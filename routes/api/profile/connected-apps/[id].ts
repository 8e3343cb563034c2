import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { orThrow } from "@/lib/http/outcome.ts";
import { revokeGrant } from "@/lib/oauth/tokens.ts";
import { Ok } from "@/lib/schemas/profile.ts";
import { define } from "@/lib/state.ts";

/**
 * DELETE /api/profile/connected-apps/:id — disconnect an app: every token of that grant
 * (access and refresh) stops working at once.
 */
export const handler = define.handlers({
  async DELETE(ctx) {
    const user = requireUser(ctx.state.user);
    orThrow(await revokeGrant(ctx.state.services.kv, ctx.params.id, user.id), {
      not_found: [404, "No such connected app"],
    });
    return Response.json({ ok: true });
  },
});

export const docs: OperationDoc[] = [{
  method: "delete",
  path: "/api/profile/connected-apps/{id}",
  tag: "Agent keys",
  summary: "Disconnect an app",
  description:
    "Revokes the grant: its access token answers 401 at once and its refresh token is refused. The app has to be approved again to reconnect.",
  auth: "session",
  pathParams: [{ name: "id", description: "The app's `id` (`grant_…`)" }],
  responses: {
    "200": { description: "Disconnected", schema: Ok, example: { ok: true } },
    "401": unauthorizedSession,
    "404": err("No such app of yours (or already disconnected)", "No such connected app"),
  },
}];

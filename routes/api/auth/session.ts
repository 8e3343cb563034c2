import { type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { SessionSchema } from "@/lib/schemas/profile.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/auth/session: the signed-in user (id, name, image, provider) — never tokens
 * or email — or 401.
 */
export const handler = define.handlers({
  GET(ctx) {
    const user = ctx.state.user;
    if (!user) {
      throw new HttpError(401, "Unauthorized", { headers: { "cache-control": "no-store" } });
    }
    return Response.json({
      user: { id: user.id, name: user.name, image: user.image, provider: user.provider },
    }, { headers: { "cache-control": "no-store" } });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/auth/session",
  tag: "Session",
  summary: "Who is signed in",
  auth: "session",
  responses: {
    "200": { description: "The signed-in user", schema: SessionSchema },
    "401": unauthorizedSession,
  },
}];

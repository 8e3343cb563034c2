import {
  err,
  type OperationDoc,
  questionIdParam,
  unauthorizedSession,
} from "@/lib/agent/openapi_docs.ts";
import { getQuestion } from "@/lib/community/questions/read.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { requireUser, viewerOf } from "@/lib/http/auth.ts";
import { toggleFollow } from "@/lib/notifications/notifications.ts";
import { FollowResult } from "@/lib/schemas/notifications.ts";
import { define } from "@/lib/state.ts";

/** POST /api/questions/:id/follow — follow or unfollow (a toggle) → {following}. */
export const handler = define.handlers({
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const { services } = ctx.state;
    const q = await getQuestion(services.kv, ctx.params.id, await viewerOf(services, user));
    if (!q || q.deletedAt !== undefined) throw new HttpError(404, "Question not found");
    return Response.json(await toggleFollow(services.kv, q.id, user.id, services.now()));
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/questions/{id}/follow",
  tag: "Notifications",
  summary: "Follow or unfollow a question (a toggle)",
  description:
    "Followers get an `answer` notification for each new answer. You follow the questions you ask and answer automatically.",
  auth: "session",
  pathParams: questionIdParam,
  responses: {
    "200": { description: "Whether you follow it now", schema: FollowResult },
    "401": unauthorizedSession,
    "404": err("No such question", "Question not found"),
  },
}];

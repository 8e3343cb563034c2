import {
  err,
  type OperationDoc,
  questionIdParam,
  unauthorizedSession,
} from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { orThrow } from "@/lib/http/outcome.ts";
import { enforceRateLimit } from "@/lib/http/rate_limit.ts";
import { inviteExpert, INVITES_PER_HOUR } from "@/lib/panel/invite.ts";
import { InviteBody, InviteResponse } from "@/lib/schemas/panel.ts";
import { define } from "@/lib/state.ts";

/** POST /api/questions/:id/invite {expertId} — ask one AI expert to answer (session). */
export const handler = define.handlers({
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const body = await parseBody(ctx.req, InviteBody);
    const services = ctx.state.services;
    await enforceRateLimit(
      services.kv,
      "expert_invite",
      user.id,
      INVITES_PER_HOUR,
      3_600_000,
      services.now(),
    );
    orThrow(await inviteExpert(services, ctx.params.id, body.expertId, user.id), {
      question_not_found: [404, "Question not found"],
      expert_not_found: [400, "expertId must be an expert of GET /api/experts"],
      already_invited: [409, "This expert is already in this question's thread"],
    });
    return Response.json({ ok: true, expertId: body.expertId }, { status: 202 });
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/questions/{id}/invite",
  tag: "Questions",
  summary: "Invite an AI expert to answer a question",
  description:
    `The expert's answer is written in the background and streamed on \`GET /api/questions/{id}/panel/events\`. Once per expert and question, and never an expert already in its thread; ${INVITES_PER_HOUR} invitations per hour per person.`,
  auth: "session",
  pathParams: questionIdParam,
  body: InviteBody,
  responses: {
    "202": { description: "The expert will answer", schema: InviteResponse },
    "400": err("Unknown expert", "expertId must be an expert of GET /api/experts"),
    "401": unauthorizedSession,
    "404": err("No such question", "Question not found"),
    "409": err("Already in the thread", "This expert is already in this question's thread"),
    "429": err("Too many invitations", "Rate limit exceeded"),
  },
}];

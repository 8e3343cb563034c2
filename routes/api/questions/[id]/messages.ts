import { readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { requireUser } from "@/lib/http/auth.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { addMessage, messageViews } from "@/lib/community/messages.ts";
import { authorOf } from "@/lib/profile/profiles.ts";
import { NewMessageBody } from "@/lib/schemas/community.ts";
import { asObject, parseInput } from "@/lib/schemas/parse.ts";
import type { AppState } from "@/lib/state.ts";

/** POST /api/questions/:id/messages {content, replyTo?} — answer or reply (session). */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const user = requireUser(ctx.state.user);
    const body = parseInput(NewMessageBody, asObject(await readJson(req)));
    const { kv, now } = ctx.state.services;
    const author = await authorOf(kv, user.id);
    if (!author) throw new HttpError(401, "Unauthorized");
    const r = await addMessage(kv, {
      questionId: ctx.params.id,
      author,
      content: body.content,
      replyTo: body.replyTo ?? undefined,
      createdBy: "user",
    }, { now: now() });
    if (!r.ok && r.reason === "question_not_found") {
      throw new HttpError(404, "Question not found");
    }
    if (!r.ok) throw new HttpError(400, "replyTo must be a message of this question");
    const [view] = await messageViews(kv, [r.message]);
    return Response.json(view, { status: 201 });
  },
};

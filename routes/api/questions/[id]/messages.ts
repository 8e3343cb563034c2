import { readJson } from "@/lib/http/body.ts";
import { requireUser } from "@/lib/http/auth.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { messageViews, postMessage } from "@/lib/community/messages.ts";
import { orThrow, WRITE_FAILURES } from "@/lib/http/outcome.ts";
import { NewMessageBody } from "@/lib/schemas/community.ts";
import { asObject, parseInput } from "@/lib/schemas/parse.ts";
import type { AppState } from "@/lib/state.ts";

/** POST /api/questions/:id/messages {content, replyTo?} — answer or reply (session). */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const user = requireUser(ctx.state.user);
    const body = parseInput(NewMessageBody, asObject(await readJson(req)));
    const { kv, now } = ctx.state.services;
    const { message } = orThrow(
      await postMessage(kv, {
        userId: user.id,
        questionId: ctx.params.id,
        content: body.content,
        replyTo: body.replyTo ?? undefined,
        createdBy: "user",
      }, { now: now() }),
      WRITE_FAILURES,
    );
    const [view] = await messageViews(kv, [message]);
    return Response.json(view, { status: 201 });
  },
};

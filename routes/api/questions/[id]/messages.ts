import { readJson } from "@/lib/http/body.ts";
import { requireUser } from "@/lib/http/auth.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { getMessageView, postMessage } from "@/lib/community/messages.ts";
import { idempotentCreate } from "@/lib/http/idempotency.ts";
import { orThrow, WRITE_FAILURES } from "@/lib/http/outcome.ts";
import { NewMessageBody } from "@/lib/schemas/community.ts";
import { asObject, parseInput } from "@/lib/schemas/parse.ts";
import type { AppState } from "@/lib/state.ts";

/** POST /api/questions/:id/messages {content, replyTo?} — answer or reply (session). */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const user = requireUser(ctx.state.user);
    const body = parseInput(NewMessageBody, asObject(await readJson(req)));
    const { kv, now, config } = ctx.state.services;
    const created = async (id: string) =>
      Response.json(await getMessageView(kv, id), { status: 201 });
    return await idempotentCreate(req, kv, `user:${user.id}`, now(), async (attach) => {
      const { message } = orThrow(
        await postMessage(kv, {
          userId: user.id,
          questionId: ctx.params.id,
          content: body.content,
          replyTo: body.replyTo ?? undefined,
          createdBy: "user",
        }, { now: now(), limits: config.limits, extra: attach && ((op, m) => attach(op, m.id)) }),
        WRITE_FAILURES,
      );
      return { resourceId: message.id, response: await created(message.id) };
    }, created);
  },
};

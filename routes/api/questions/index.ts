import { readJson } from "@/lib/http/body.ts";
import { requireUser } from "@/lib/http/auth.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { askQuestion } from "@/lib/community/questions/write.ts";
import { orThrow, WRITE_FAILURES } from "@/lib/http/outcome.ts";
import { idempotentCreate } from "@/lib/http/idempotency.ts";
import { findQuestions } from "@/lib/community/questions/feed.ts";
import { getQuestionView } from "@/lib/community/questions/read.ts";
import { NewQuestionBody, QuestionsQuery } from "@/lib/schemas/community.ts";
import { asObject, parseInput, queryObject } from "@/lib/schemas/parse.ts";
import type { AppState } from "@/lib/state.ts";

/**
 * GET /api/questions?sort=new|hot&q=&tag=&page=&limit= — the people feed (public).
 * POST /api/questions {title, description?, tags?} — ask as the signed-in user.
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const query = parseInput(QuestionsQuery, queryObject(ctx.url));
    const { kv, now } = ctx.state.services;
    return Response.json(await findQuestions(kv, query, now()));
  },
  async POST(req, ctx) {
    const user = requireUser(ctx.state.user);
    const body = parseInput(NewQuestionBody, asObject(await readJson(req)));
    const { kv, now, config } = ctx.state.services;
    const view = async (id: string) =>
      Response.json(await getQuestionView(kv, id), { status: 201 });
    return await idempotentCreate(req, kv, `user:${user.id}`, now(), async (attach) => {
      const { question } = orThrow(
        await askQuestion(kv, {
          userId: user.id,
          title: body.title,
          description: body.description ?? "",
          tags: body.tags ?? [],
          createdBy: "user",
        }, {
          now: now(),
          idPrefix: "q-",
          limits: config.limits,
          extra: attach && ((op, q) => attach(op, q.id)),
        }),
        WRITE_FAILURES,
      );
      return { resourceId: question.id, response: await view(question.id) };
    }, view);
  },
};

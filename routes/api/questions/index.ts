import { readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { requireUser } from "@/lib/http/auth.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { authorOf } from "@/lib/profile/profiles.ts";
import { createQuestion } from "@/lib/community/questions/write.ts";
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
    const { kv, now } = ctx.state.services;
    const author = await authorOf(kv, user.id);
    if (!author) throw new HttpError(401, "Unauthorized");
    const q = await createQuestion(kv, {
      title: body.title,
      description: body.description ?? "",
      tags: body.tags ?? [],
      author,
      createdBy: "user",
    }, { now: now(), idPrefix: "q-" });
    return Response.json(await getQuestionView(kv, q.id), { status: 201 });
  },
};

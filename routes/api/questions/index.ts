import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { askQuestion } from "@/lib/community/questions/write.ts";
import { idempotentCreate } from "@/lib/http/idempotency.ts";
import { findQuestions } from "@/lib/community/questions/feed.ts";
import { cachedJson } from "@/lib/community/read_cache.ts";
import { getQuestionView, newQuestionView } from "@/lib/community/questions/read.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { orThrow, WRITE_FAILURES } from "@/lib/http/outcome.ts";
import {
  NewQuestionBody,
  QuestionPage,
  QuestionSchema,
  QuestionsQuery,
} from "@/lib/schemas/community.ts";
import { parseInput, queryObject } from "@/lib/schemas/parse.ts";
import { define } from "@/lib/state.ts";
import { titleRule } from "@/lib/input_limits.ts";
import { newPanelOps, startPanel } from "@/lib/panel/job.ts";
import { jobRunner } from "@/lib/jobs/runner.ts";
import { getSettings } from "@/lib/profile/settings.ts";

/**
 * GET /api/questions?sort=new|hot&q=&tag=&page=&limit= — the people feed (public).
 * POST /api/questions {title, description?, tags?, panel?} — ask as the signed-in user; the
 * AI expert panel discusses it unless `panel: false` or the asker's `expertPanel` setting.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const query = parseInput(QuestionsQuery, queryObject(ctx.url), { in: "query" });
    const { kv, now, feedCacheMs = 1000, embedder } = ctx.state.services;
    // The busiest read: a one-second cache per query (as the home page's); this process's
    // own writes drop it at once, other instances' show within the second.
    return await cachedJson(
      kv,
      `api:${JSON.stringify(query)}`,
      feedCacheMs,
      () => findQuestions(kv, query, now(), { embedder }),
    );
  },
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const body = await parseBody(ctx.req, NewQuestionBody);
    const { kv, now, config } = ctx.state.services;
    const view = async (id: string) =>
      Response.json(await getQuestionView(kv, id), { status: 201 });
    // EXPERT_PANEL_PER_DAY=0 turns the panel off: no job is even recorded.
    const panel = config.expertPanelPerDay > 0 && body.panel !== false &&
      (await getSettings(kv, user.id)).expertPanel !== false;
    return await idempotentCreate(ctx.req, body, kv, `user:${user.id}`, now(), async (attach) => {
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
          extra: (op, q) => {
            attach?.(op, q.id);
            // The panel's job is created with the question: it cannot be lost.
            if (panel) newPanelOps(op, q.id, jobRunner(kv));
          },
        }),
        WRITE_FAILURES,
      );
      if (panel) await startPanel(kv, question.id);
      return {
        resourceId: question.id,
        response: Response.json(newQuestionView(question), { status: 201 }),
      };
    }, view);
  },
});

export const docs: OperationDoc[] = [
  {
    method: "get",
    path: "/api/questions",
    tag: "Questions",
    summary: "The question feed: new or hot, search, tag",
    description:
      "`q` is a ranked search (stems, one typo forgiven in words of 5+ letters and two in 9+, the last word also matching the words it starts): questions that match every word come first, then those that match fewer; without `sort` the order is relevance. Hot ranks the 200 newest (matching) questions by up-votes plus answers, decayed by age.",
    auth: "public",
    query: QuestionsQuery,
    responses: {
      "200": { description: "A page", schema: QuestionPage },
      "400": err("Bad sort, page, limit or q"),
    },
  },
  {
    method: "post",
    path: "/api/questions",
    tag: "Questions",
    summary: "Ask a question",
    auth: "session",
    idempotent: true,
    body: NewQuestionBody,
    responses: {
      "201": { description: "The new question", schema: QuestionSchema },
      "400": err("Invalid body", titleRule(1)),
      "401": unauthorizedSession,
    },
  },
];

import { agentRoute } from "@/lib/http/agent.ts";
import { readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/http/errors.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { askQuestion } from "@/lib/community/questions/write.ts";
import { getQuestion } from "@/lib/community/questions/read.ts";
import { idempotentCreate } from "@/lib/http/idempotency.ts";
import { AGENT_WRITE_FAILURES, orThrow } from "@/lib/http/outcome.ts";
import { listQuestionsPage } from "@/lib/community/questions/feed.ts";
import { toListItem } from "@/lib/community/questions/model.ts";
import { AgentNewQuestionBody, AgentQuestionsQuery, TITLE_ERROR } from "@/lib/schemas/agent.ts";
import { asObject, parseInput, queryObject } from "@/lib/schemas/parse.ts";
import type { AppState } from "@/lib/state.ts";

/**
 * GET /api/agent/questions?limit=&page= — questions newest first (API key).
 * POST /api/agent/questions {title, description?, tags?} — ask as the key's owner.
 */
export const handler: Handlers<unknown, AppState> = {
  GET: agentRoute(async (_req, ctx) => {
    const { limit, page } = parseInput(AgentQuestionsQuery, queryObject(ctx.url));
    const { questions, total } = await listQuestionsPage(ctx.state.services.kv, {
      page,
      limit,
      downvotes: false,
    });
    return Response.json({ questions: questions.map(toListItem), total, page, limit });
  }),
  POST: agentRoute(async (req, ctx, { key }) => {
    const data = asObject(await readJson(req));
    const parsed = AgentNewQuestionBody.safeParse(data);
    if (!parsed.success && parsed.error.issues.some((i) => i.path[0] === "title")) {
      // SPEC.md fixes this body exactly.
      throw new HttpError(400, TITLE_ERROR);
    }
    const body = parseInput(AgentNewQuestionBody, data);
    const { kv, now, config } = ctx.state.services;
    const created = (q: { id: string; title: string; createdAt: number } | null) =>
      Response.json(q && { id: q.id, title: q.title, createdAt: q.createdAt }, { status: 201 });
    return await idempotentCreate(req, kv, `agent:${key.id}`, now(), async (attach) => {
      const { question: q } = orThrow(
        await askQuestion(kv, {
          userId: key.userId,
          title: body.title,
          description: body.description ?? "",
          tags: body.tags ?? [],
          createdBy: "agent",
        }, {
          now: now(),
          idPrefix: "q-agent-",
          limits: config.limits,
          extra: attach && ((op, q) => attach(op, q.id)),
        }),
        AGENT_WRITE_FAILURES,
      );
      return { resourceId: q.id, response: created(q) };
    }, async (id) => created(await getQuestion(kv, id)));
  }),
};

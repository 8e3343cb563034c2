import {
  err,
  exampleListItem,
  type OperationDoc,
  rateLimited,
  tooLarge,
  unauthorizedKey,
} from "@/lib/agent/openapi_docs.ts";
import { askQuestion } from "@/lib/community/questions/write.ts";
import { getQuestion } from "@/lib/community/questions/read.ts";
import { idempotentCreate } from "@/lib/http/idempotency.ts";
import { listQuestionsPage } from "@/lib/community/questions/feed.ts";
import { toListItem } from "@/lib/community/questions/model.ts";
import { cachedJson } from "@/lib/community/read_cache.ts";
import { requireAgent } from "@/lib/http/agent.ts";
import { DEFAULT_BODY_LIMIT, readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { AGENT_WRITE_FAILURES, orThrow } from "@/lib/http/outcome.ts";
import {
  AgentNewQuestionBody,
  AgentQuestionCreated,
  AgentQuestionList,
  AgentQuestionsQuery,
  TITLE_ERROR,
} from "@/lib/schemas/agent.ts";
import { asObject, parseInput, queryObject } from "@/lib/schemas/parse.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/agent/questions?limit=&page= — questions newest first (API key).
 * POST /api/agent/questions {title, description?, tags?} — ask as the key's owner.
 */
export const handler = define.handlers({
  async GET(ctx) {
    requireAgent(ctx.state, "read");
    const { limit, page } = parseInput(AgentQuestionsQuery, queryObject(ctx.url), {
      in: "query",
    });
    const { kv, feedCacheMs = 1000 } = ctx.state.services;
    // Read-through for a second, like the feed (this process's writes drop it at once).
    return await cachedJson(kv, `agent:${page}:${limit}`, feedCacheMs, async () => {
      const { questions, total } = await listQuestionsPage(kv, { page, limit, downvotes: false });
      return { questions: questions.map(toListItem), total, page, limit };
    });
  },
  async POST(ctx) {
    const { credential } = requireAgent(ctx.state, "write");
    const data = asObject(await readJson(ctx.req));
    const parsed = AgentNewQuestionBody.safeParse(data);
    if (!parsed.success && parsed.error.issues.some((i) => i.path[0] === "title")) {
      // docs/interface.md#errors fixes this body exactly.
      throw new HttpError(400, TITLE_ERROR);
    }
    const body = parseInput(AgentNewQuestionBody, data);
    const { kv, now, config } = ctx.state.services;
    const created = (q: { id: string; title: string; createdAt: number } | null) =>
      Response.json(q && { id: q.id, title: q.title, createdAt: q.createdAt }, { status: 201 });
    return await idempotentCreate(
      ctx.req,
      body,
      kv,
      `agent:${credential.id}`,
      now(),
      async (attach) => {
        const { question: q } = orThrow(
          await askQuestion(kv, {
            userId: credential.userId,
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
      },
      async (id) => created(await getQuestion(kv, id)),
    );
  },
});

export const docs: OperationDoc[] = [
  {
    method: "get",
    path: "/api/agent/questions",
    tag: "Agent",
    summary: "List questions, newest first",
    description:
      "Pages are 1-based. `limit` defaults to 20; values above 50 are clamped to 50. A page past the end returns an empty list with the true total.",
    auth: "apiKey",
    scope: "read",
    query: AgentQuestionsQuery,
    responses: {
      "200": {
        description: "A page of questions",
        schema: AgentQuestionList,
        example: { questions: [exampleListItem], total: 41, page: 1, limit: 20 },
      },
      "400": err("page or limit is not an integer ≥ 1", "page must be an integer of at least 1"),
      "401": unauthorizedKey,
      "429": rateLimited,
    },
  },
  {
    method: "post",
    path: "/api/agent/questions",
    tag: "Agent",
    summary: "Ask a question as the key's owner",
    idempotent: true,
    description:
      "The title is trimmed and must be 2–120 characters. Tags are trimmed, empty ones and repeats dropped, the first 5 kept. The author is the key owner's profile (display name and avatar).",
    auth: "apiKey",
    scope: "write",
    body: AgentNewQuestionBody,
    responses: {
      "201": {
        description: "Created",
        schema: AgentQuestionCreated,
        example: {
          id: "q-agent-mwr82izk9j53ujsi",
          title: "How do I page a Deno KV list?",
          createdAt: 1700000000000,
        },
      },
      "400": err(
        "Body is not JSON (`Invalid JSON body`), the title is missing / out of bounds, or another field is bad (with `issues`)",
        TITLE_ERROR,
      ),
      "401": unauthorizedKey,
      "413": tooLarge(DEFAULT_BODY_LIMIT),
      "429": rateLimited,
    },
  },
];

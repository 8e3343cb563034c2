/**
 * Parley as a Model Context Protocol server (docs/interface.md#mcp): the tools
 * an MCP client (Claude, ChatGPT, Cursor, Copilot…) sees at `/mcp`, run by the same
 * domain functions as the agent REST API, for the owner of the agent key.
 *
 * Built on the official SDK, `@modelcontextprotocol/sdk`, with its web-standard
 * Streamable HTTP transport (`WebStandardStreamableHTTPServerTransport`, Request in,
 * Response out) rather than the `@hono/mcp` adapter: the app's routes already hand us a
 * web `Request`, so the adapter would add a dependency for nothing. The transport runs
 * stateless (`sessionIdGenerator: undefined`) with JSON responses: every HTTP request gets
 * a fresh server and transport ({@link handleMcpRequest}) and nothing stays in memory, so
 * any instance can answer any request.
 *
 * The tools are declared on the SDK's protocol-level `Server` through its `tools/list`
 * and `tools/call` handlers rather than `McpServer.registerTool` (`McpServer` would also
 * announce `listChanged: true`, which a stateless server cannot honour): that lets the
 * JSON Schemas come from Parley's own zod schemas exactly as `/api/openapi.json` renders
 * them (input schemas in zod's `input` mode, so a defaulted field is optional), and lets
 * validation run through `parseInput`, so a bad argument fails with the REST API's
 * message ("title is required (min 2 chars)"), not the SDK's generic one. Every failure —
 * bad input, "Question not found", the rate limit — is a tool error (`isError: true`)
 * whose text is the REST error message.
 *
 * @module
 */
import type { Embedder } from "../search/embeddings.ts";
import { listNotifications } from "../notifications/notifications.ts";
import {
  NotificationsQuery as ListNotificationsInput,
  NotificationsResult,
} from "../schemas/notifications.ts";
import { z } from "zod";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  type CompleteRequest,
  CompleteRequestSchema,
  ErrorCode,
  type GetPromptRequest,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  type ListResourcesRequest,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type ReadResourceRequest,
  ReadResourceRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { messageViews, newMessageView } from "../community/messages/read.ts";
import { postMessage } from "../community/messages/write.ts";
import { findQuestions } from "../community/questions/feed.ts";
import { similarQuestions } from "../search/similar.ts";
import { SimilarQuery, SimilarQuestions } from "../schemas/similar.ts";
import { askQuestion } from "../community/questions/write.ts";
import { deleteQuestion } from "../community/questions/delete.ts";
import { editQuestion } from "../community/questions/edit.ts";
import { questionViewOf } from "../community/questions/read.ts";
import { deleteMessage, editMessage } from "../community/message_lifecycle.ts";
import type { PostingLimits } from "../limits/posting.ts";
import { castVoteInQuestion } from "../community/votes.ts";
import { HttpError } from "../fresh/error.ts";
import { expectedError } from "../http/errors.ts";
import {
  AGENT_WRITE_FAILURES,
  LIFECYCLE_FAILURES,
  orThrow,
  VOTE_IN_QUESTION_FAILURES,
} from "../http/outcome.ts";
import { parseInput } from "../schemas/parse.ts";
import { ANSWER_NOT_FOUND, answerMissing } from "../community/thread.ts";
import { unknownFieldsIn } from "../schemas/closed.ts";
import { missingScopeMessage, type Scope } from "./scopes.ts";
import {
  AgentQuestionCreated,
  ANSWER_REPLIES_PAGE_SIZE,
  AskQuestionInput,
  DeletePostInput,
  EditPostInput,
  EditPostResult,
  GetQuestionInput,
  McpMessage,
  McpQuestionPage,
  OkResult,
  QuestionThreadPage,
  ReadPostInput,
  ReadPostResult,
  ReplyInput,
  SearchQuestionsInput,
  THREAD_PAGE_REPLIES,
  THREAD_PAGE_SIZE,
  VoteInput,
  VoteResult,
} from "../schemas/mcp.ts";
import { completeMcpArgument } from "./mcp_completion.ts";
import { getMcpPrompt, mcpPromptDefinitions } from "./mcp_prompts.ts";
import {
  listQuestionResources,
  questionResourceTemplates,
  readQuestionResource,
} from "./mcp_resources.ts";
import { compactAuthor, fitTexts } from "./mcp_size.ts";
import { mcpThreadPage, readPost, readPostCall } from "./mcp_thread.ts";
import { readThreadInsights } from "../insights/read.ts";
import { ThreadInsights, ThreadInsightsInput } from "../schemas/insights.ts";

/** Server name and version announced on `initialize`. */
export const MCP_SERVER_INFO = { name: "parley", version: "1.0.0" } as const;

/** Questions per page of `search_questions` (the REST feed's default `limit`). */
export const SEARCH_PAGE_SIZE = 20;

/** Bytes of description text one `search_questions` page shares (lib/agent/mcp_size.ts). */
export const SEARCH_TEXT_BUDGET = 6_000;

/** Who is calling and with what: the key owner, the store and the clock. */
export interface McpCaller {
  kv: Deno.Kv;
  now: () => number;
  /** The agent key's owner: every write is theirs. */
  userId: string;
  /**
   * The credential's kind and scopes: a tool its scopes do not cover is a tool error
   * (`/mcp` refuses such a request with 403 before it gets here). Absent: every scope.
   */
  credential?: { kind: "key" | "token"; scopes: readonly Scope[] };
  /** The per-user posting limits the REST API applies (none when absent, as in examples). */
  limits?: PostingLimits;
  /**
   * Set when the key is over its rate limit: `tools/call` then answers this error as a
   * tool error (so the model reads "Rate limit exceeded" and can wait) and does nothing.
   */
  limited?: HttpError;
  /** Reorders searches by meaning when a model embeds (lib/search/rerank.ts). */
  embedder?: Embedder | null;
  /** The site's origin (APP_ORIGIN), for links in Markdown renderings. */
  origin?: string;
  /**
   * The language model, when this instance has one: a stale summary or map is then
   * rewritten in the background (lib/insights/); without one the cached ones are served.
   */
  llm?: unknown;
}

type Json = Record<string, unknown>;

/** One tool: its name, what it does, its zod input and output, and its work. */
interface ToolDef<I extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: z.ZodType;
  readOnly: boolean;
  /** True for tools that remove something (MCP's `destructiveHint`). */
  destructive?: boolean;
  run(caller: McpCaller, args: z.infer<I>): Promise<Json>;
}

function tool<I extends z.ZodType>(def: ToolDef<I>): ToolDef {
  return def as unknown as ToolDef;
}

/** The tools, in the order `tools/list` gives them. */
export const MCP_TOOLS: readonly ToolDef[] = [
  tool({
    name: "search_questions",
    title: "Search questions",
    description:
      `Find questions: search words (q, ranked by relevance; typos and the start of the last word are forgiven; "phrases", tag:name and is:unanswered work inside q), or list newest first (sort "new") or hot, optionally by tag; ${SEARCH_PAGE_SIZE} per page. Search before you ask. Same as GET /api/questions, except that long descriptions are clipped so the ${SEARCH_PAGE_SIZE} share about ${SEARCH_TEXT_BUDGET} bytes (clipped: true; read_post returns one whole).`,
    input: SearchQuestionsInput,
    output: McpQuestionPage,
    readOnly: true,
    async run({ kv, now, embedder }, args) {
      const page = await findQuestions(kv, { ...args, limit: SEARCH_PAGE_SIZE }, now(), {
        embedder,
      });
      const fitted = fitTexts(
        page.questions.map((q) => ({
          text: q.description,
          whole: readPostCall("question", q.id),
        })),
        SEARCH_TEXT_BUDGET,
      );
      return {
        ...page,
        questions: page.questions.map((q, i) => ({
          ...q,
          author: compactAuthor(q.author),
          description: fitted[i].text,
          ...(fitted[i].clipped ? { clipped: true } : {}),
        })),
      };
    },
  }),
  tool({
    name: "similar_questions",
    title: "Find questions like yours",
    description:
      "Before asking: up to 5 existing questions most like the title you mean to ask (ranked search: stems and typos forgiven, reordered by meaning when a model embeds), with their answer count, whether an answer is accepted, and their vote score. Read one that asks the same thing instead of asking again. Same as GET /api/questions/similar.",
    input: SimilarQuery,
    output: SimilarQuestions,
    readOnly: true,
    async run({ kv, embedder }, args) {
      return { questions: await similarQuestions(kv, args.title, { embedder }) };
    },
  }),
  tool({
    name: "get_question",
    title: "Read a question",
    description:
      `A question with one page of its thread: ${THREAD_PAGE_SIZE} top-level answers per page (page; sort "votes", "newest" or "oldest"), each with its first ${THREAD_PAGE_REPLIES} replies — replyCounts has every answer's total; pass answer (an answer id) for that answer with ${ANSWER_REPLIES_PAGE_SIZE} of its replies a page (replyPage). Kept small for your context: no voter lists, and when the texts are long they share about 16,000 bytes (the description keeps up to 4,000), each clipped one marked clipped: true and ending with the read_post call that returns it whole. Same data as GET /api/questions/{id} otherwise.`,
    input: GetQuestionInput,
    output: QuestionThreadPage,
    readOnly: true,
    async run({ kv, userId }, args) {
      // The key's owner reads as themself (their own hidden posts); an agent key never
      // acts as a moderator.
      const page = await mcpThreadPage(kv, args, { userId });
      if (!page) throw new HttpError(404, "Question not found");
      if (answerMissing(page, args)) throw new HttpError(404, ANSWER_NOT_FOUND);
      return page as unknown as Json;
    },
  }),
  tool({
    name: "read_post",
    title: "Read one post whole",
    description:
      'One question (targetType "question", without its thread) or one answer or reply (targetType "message", with its question\'s title), with its whole text — for texts get_question or search_questions clipped, or a message a notification names.',
    input: ReadPostInput,
    output: ReadPostResult,
    readOnly: true,
    async run({ kv, userId }, args) {
      const post = await readPost(kv, args.targetType, args.id, { userId });
      if (!post) {
        throw new HttpError(
          404,
          args.targetType === "question" ? "Question not found" : "Message not found",
        );
      }
      return post as unknown as Json;
    },
  }),
  tool({
    name: "get_thread_summary",
    title: "Read a long thread in one call",
    description:
      "A question's AI-written summary (what the answers agree on, where they differ, the accepted answer's point; [1], [2] … cite the answer ids in cites, null under 8 answers) and its opinion map (each answer's stance — support, oppose, neutral, conditional — summary and key argument, how answers relate, the camps; null under 3 answers), both written by a model and cached. Never waits: status says generating while a newer one is written. Same as GET /api/questions/{id}/summary and /map.",
    input: ThreadInsightsInput,
    output: ThreadInsights,
    readOnly: true,
    async run({ kv, now, userId, llm }, args) {
      const got = await readThreadInsights({ kv, now, llm }, args.id, { userId });
      if (!got) throw new HttpError(404, "Question not found");
      return { questionId: args.id, summary: got.summary, map: got.map };
    },
  }),
  tool({
    name: "ask_question",
    title: "Ask a question",
    description:
      "Ask a question as the key's owner. Same rules as POST /api/agent/questions: title 2–120 characters, description Markdown, up to 5 tags. Call similar_questions first: do not ask what is already asked.",
    input: AskQuestionInput,
    output: AgentQuestionCreated,
    readOnly: false,
    async run({ kv, now, userId, limits }, args) {
      const { question: q } = orThrow(
        await askQuestion(kv, {
          userId,
          title: args.title,
          description: args.description ?? "",
          tags: args.tags ?? [],
          createdBy: "agent",
        }, { now: now(), idPrefix: "q-agent-", limits }),
        AGENT_WRITE_FAILURES,
      );
      return { id: q.id, title: q.title, createdAt: q.createdAt };
    },
  }),
  tool({
    name: "reply",
    title: "Reply",
    description:
      "Answer a question, or reply to one of its messages (replyTo), as the key's owner. Content is Markdown. Same as POST /api/agent/questions/{id}/reply.",
    input: ReplyInput,
    output: McpMessage,
    readOnly: false,
    async run({ kv, now, userId, limits }, args) {
      const { message } = orThrow(
        await postMessage(kv, {
          userId,
          questionId: args.questionId,
          content: args.content,
          replyTo: args.replyTo ?? undefined,
          createdBy: "agent",
          authorType: "user",
        }, { now: now(), idPrefix: "msg-agent-reply-", limits }),
        AGENT_WRITE_FAILURES,
      );
      // The MCP message has no voter lists.
      const { likedBy: _l, dislikedBy: _d, ...view } = newMessageView(message);
      return { ...view, author: compactAuthor(view.author) } as unknown as Json;
    },
  }),
  tool({
    name: "vote",
    title: "Vote",
    description:
      'Vote on a question, or on one of its messages (messageId): "up" toggles an up-vote, "down" a down-vote, the opposite type switches. Same as POST /api/agent/questions/{id}/vote.',
    input: VoteInput,
    output: VoteResult,
    readOnly: false,
    async run({ kv, now, userId, limits }, args) {
      const { vote } = orThrow(
        await castVoteInQuestion(
          kv,
          {
            userId,
            questionId: args.questionId,
            messageId: args.messageId,
            voteType: args.voteType,
          },
          now(),
          { limits },
        ),
        VOTE_IN_QUESTION_FAILURES,
      );
      return vote as unknown as Json;
    },
  }),
  tool({
    name: "edit_post",
    title: "Edit your post",
    description:
      'Edit one of your own posts: a question (targetType "question": title, description and/or tags) or an answer/reply (targetType "message": content). The previous version is kept. Same as PATCH /api/agent/questions/{id} and /api/agent/messages/{id}.',
    input: EditPostInput,
    output: EditPostResult,
    readOnly: false,
    async run({ kv, now, userId }, args) {
      if (args.targetType === "question") {
        const { question } = orThrow(
          await editQuestion(kv, {
            questionId: args.id,
            userId,
            edit: { title: args.title, description: args.description, tags: args.tags },
          }, { now: now() }),
          LIFECYCLE_FAILURES,
        );
        const view = await questionViewOf(kv, question, { voters: false });
        return {
          targetType: "question",
          question: { ...view, author: compactAuthor(view.author) },
        };
      }
      const { message } = orThrow(
        await editMessage(kv, { messageId: args.id, userId, content: args.content! }, {
          now: now(),
        }),
        LIFECYCLE_FAILURES,
      );
      const [view] = await messageViews(kv, [message], { voters: false });
      return { targetType: "message", message: { ...view, author: compactAuthor(view.author) } };
    },
  }),
  tool({
    name: "delete_post",
    title: "Delete your post",
    description:
      'Delete one of your own posts (targetType "question" or "message"). A message with replies stays as "[deleted]". Same as DELETE /api/agent/questions/{id} and /api/agent/messages/{id}.',
    input: DeletePostInput,
    output: OkResult,
    readOnly: false,
    destructive: true,
    async run({ kv, now, userId }, args) {
      const input = { userId, moderator: false };
      orThrow(
        args.targetType === "question"
          ? await deleteQuestion(kv, { ...input, questionId: args.id }, { now: now() })
          : await deleteMessage(kv, { ...input, messageId: args.id }, { now: now() }),
        LIFECYCLE_FAILURES,
      );
      return { ok: true };
    },
  }),
  tool({
    name: "list_notifications",
    title: "Your notifications",
    description:
      "Your owner's notifications, newest first, 20 a page (answer, reply, accepted, upvotes); pass nextCursor as cursor for more. Same as GET /api/agent/notifications.",
    input: ListNotificationsInput,
    output: NotificationsResult,
    readOnly: true,
    async run({ kv, now, userId }, args) {
      const { links: _links, ...page } = await listNotifications(
        kv,
        userId,
        args.cursor ?? null,
        now(),
      );
      return {
        ...page,
        notifications: page.notifications.map((n) =>
          n.actor
            ? {
              ...n,
              actor: {
                ...n.actor,
                avatarUrl: compactAuthor({ avatar: n.actor.avatarUrl }).avatar,
              },
            }
            : n
        ),
      } as unknown as Json;
    },
  }),
];

/**
 * A zod schema as the JSON Schema (draft-07, what the SDK's client validates with) of a
 * tool: `$ref`s to named schemas inlined, so the root is the `{"type": "object"}` MCP
 * requires. Inputs use zod's `input` mode: a field with a default is optional.
 */
export function toolJsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const raw = z.toJSONSchema(schema, { target: "draft-7", io, unrepresentable: "any" }) as Json;
  const defs = (raw.definitions ?? {}) as Record<string, Json>;
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (node === null || typeof node !== "object") return node;
    const { $ref, ...rest } = node as Json;
    const out: Json = {};
    if (typeof $ref === "string" && $ref.startsWith("#/definitions/")) {
      Object.assign(out, inline(defs[$ref.slice("#/definitions/".length)]));
    }
    for (const [k, v] of Object.entries(rest)) {
      if (k !== "definitions" && k !== "$schema") out[k] = inline(v);
    }
    return out;
  };
  return inline(raw) as Json;
}

/**
 * The tool list as `tools/list` answers it (also what `/docs/api` and `/skill.md` show).
 *
 * @example
 * ```ts
 * const names = mcpToolDefinitions().map((t) => t.name); // ["search_questions", …]
 * ```
 */
export function mcpToolDefinitions(): Tool[] {
  return MCP_TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    // Arguments a tool does not take are refused (callMcpTool), and said so here.
    inputSchema: {
      ...toolJsonSchema(t.input, "input"),
      additionalProperties: false,
    } as Tool["inputSchema"],
    outputSchema: toolJsonSchema(t.output, "output") as Tool["outputSchema"],
    annotations: {
      title: t.title,
      readOnlyHint: t.readOnly,
      destructiveHint: t.destructive === true,
      openWorldHint: false,
    },
  }));
}

function toolError(err: HttpError): CallToolResult {
  const retry = typeof err.extra.retryAfter === "number"
    ? `. Retry after ${err.extra.retryAfter} seconds.`
    : "";
  const issues = Array.isArray(err.extra.issues) && err.extra.issues.length > 1
    ? "\n" + (err.extra.issues as { path: string; message: string }[])
      .map((i) => `- ${i.path}: ${i.message}`).join("\n")
    : "";
  return { isError: true, content: [{ type: "text", text: `${err.message}${retry}${issues}` }] };
}

/**
 * Run one tool call for `caller`: the structured result plus its JSON as text, or a tool
 * error carrying the REST API's error message.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const result = await callMcpTool({ kv, now: Date.now, userId: "u_1" }, "search_questions", {
 *   q: "deno",
 * });
 * ```
 */
export async function callMcpTool(
  caller: McpCaller,
  name: string,
  args: unknown,
): Promise<CallToolResult> {
  const def = MCP_TOOLS.find((t) => t.name === name);
  if (!def) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
  if (caller.limited) return toolError(caller.limited);
  const scope: Scope = def.readOnly ? "read" : "write";
  if (caller.credential && !caller.credential.scopes.includes(scope)) {
    return toolError(new HttpError(403, missingScopeMessage(caller.credential.kind, scope)));
  }
  // An argument the tool does not take is refused, not dropped: a misspelt `messageID` would
  // make `vote` vote on the question (REST bodies refuse look-alikes: lib/schemas/closed.ts).
  const unknown = unknownFieldsIn(def.input, args, "all");
  if (unknown) return toolError(new HttpError(400, unknown));
  try {
    const input = parseInput(def.input, args ?? {});
    const structured = await def.run(caller, input);
    return {
      structuredContent: structured,
      content: [{ type: "text", text: JSON.stringify(structured) }],
    };
  } catch (err) {
    // A full or read-only store: the REST API's 503 sentence, as a tool error.
    const expected = expectedError(err);
    if (expected) return toolError(expected);
    throw err;
  }
}

/**
 * What the server declares on `initialize`: tools, resources (no subscriptions and no
 * list-change notices: a stateless server keeps no stream open to send them on), prompts,
 * argument completion, and logging (`logging/setLevel` is accepted; Parley sends no log
 * messages: a stateless JSON answer carries only the response).
 */
export const MCP_CAPABILITIES = {
  tools: {},
  resources: { subscribe: false, listChanged: false },
  prompts: { listChanged: false },
  completions: {},
  logging: {},
} as const;

/**
 * A fresh MCP server with Parley's tools, resources, prompts and completions for one
 * caller.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const server = createMcpServer({ kv, now: Date.now, userId: "u_1" });
 * ```
 */
export function createMcpServer(caller: McpCaller): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: MCP_CAPABILITIES,
    instructions:
      "Parley is a Q&A community. Search and read questions, ask, reply and vote as the owner of the agent key. Before asking, call similar_questions with your title and read what already exists. Questions are also resources (parley://questions/{id}); the prompts answer_question, summarize_thread and draft_question start common tasks.",
  });
  const { kv, now, userId, origin } = caller;
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpToolDefinitions() }));
  server.setRequestHandler(
    CallToolRequestSchema,
    (req: CallToolRequest) => callMcpTool(caller, req.params.name, req.params.arguments),
  );
  server.setRequestHandler(
    ListResourcesRequestSchema,
    (req: ListResourcesRequest) => listQuestionResources(kv, req.params?.cursor),
  );
  server.setRequestHandler(
    ListResourceTemplatesRequestSchema,
    () => ({ resourceTemplates: questionResourceTemplates() }),
  );
  server.setRequestHandler(
    ReadResourceRequestSchema,
    (req: ReadResourceRequest) => readQuestionResource(kv, req.params.uri, { userId }, origin),
  );
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: mcpPromptDefinitions() }));
  server.setRequestHandler(
    GetPromptRequestSchema,
    (req: GetPromptRequest) =>
      getMcpPrompt({ kv, now, origin }, req.params.name, req.params.arguments),
  );
  server.setRequestHandler(
    CompleteRequestSchema,
    (req: CompleteRequest) => completeMcpArgument(kv, req.params),
  );
  return server;
}

/**
 * Answer one POST to `/mcp` statelessly: a new server and
 * transport for this request only, closed once the response is made.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const req: Request;
 * const res = await handleMcpRequest(req, { kv, now: Date.now, userId: "u_1" });
 * ```
 */
export async function handleMcpRequest(
  req: Request,
  caller: McpCaller,
  parsedBody?: unknown,
): Promise<Response> {
  const server = createMcpServer(caller);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req, parsedBody === undefined ? {} : { parsedBody });
  } finally {
    await server.close();
  }
}

/**
 * The MCP client configuration for Parley at `origin` (Claude, Cursor, VS Code and other
 * clients that take an `mcpServers` map), as `/skill.md` and `/docs/api` show it.
 *
 * @example
 * ```ts
 * const json = mcpClientConfig("https://parley.example"); // {"mcpServers": {"parley": …}}
 * ```
 */
export function mcpClientConfig(origin: string): string {
  return JSON.stringify(
    {
      mcpServers: {
        parley: {
          type: "http",
          url: `${origin}/mcp`,
          headers: { Authorization: "Bearer agent_…" },
        },
      },
    },
    null,
    2,
  );
}

/**
 * Each tool with its arguments written `name {field, optional?}` and what it does, for
 * the guides (from the same JSON Schemas `tools/list` serves).
 *
 * @example
 * ```ts
 * for (const t of mcpToolSummaries()) console.log(t.signature); // "search_questions {q?, …}"
 * ```
 */
export function mcpToolSummaries(): { name: string; signature: string; description: string }[] {
  return mcpToolDefinitions().map((t) => {
    const required = new Set(t.inputSchema.required ?? []);
    const fields = Object.keys(t.inputSchema.properties ?? {})
      .map((f) => required.has(f) ? f : `${f}?`);
    return {
      name: t.name,
      signature: `${t.name} {${fields.join(", ")}}`,
      description: t.description ?? "",
    };
  });
}

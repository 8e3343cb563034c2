/**
 * Threads as MCP shows them (docs/interface.md#mcp): `get_question`'s page, the
 * `parley://questions/{id}` resource (the same page as JSON plus a Markdown rendering),
 * and `read_post`'s whole post. A page is bounded whatever the thread holds: 10
 * top-level answers with their first 2 replies (or one answer with 10 of its replies),
 * no voter lists, avatar URLs over 300 characters dropped, and the texts fitted into one
 * byte budget (lib/agent/mcp_size.ts), each clipped text ending with a note naming the
 * `read_post` call that returns it whole.
 *
 * The page is cut from the REST thread's page (30 answers, 50 replies each:
 * lib/community/thread.ts), so ordering, visibility and paging rules are the same ones.
 *
 * @module
 */
import { getQuestion, questionViewOf } from "../community/questions/read.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import type { MessageRecord, MessageViewBase } from "../community/messages/model.ts";
import { messageViews } from "../community/messages/read.ts";
import {
  ANSWERS_PER_PAGE,
  getQuestionThreadPage,
  REPLIES_PER_ANSWER,
} from "../community/thread.ts";
import { maySee, type Viewer } from "../community/visibility.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import { ANSWER_REPLIES_PAGE_SIZE, THREAD_PAGE_REPLIES, THREAD_PAGE_SIZE } from "../schemas/mcp.ts";
import { compactAuthor, fitTexts, MCP_DESCRIPTION_SHARE } from "./mcp_size.ts";

/** Bytes of text (description and messages together) in one `get_question` page. */
export const MCP_PAGE_TEXT_BUDGET = 16_000;

/**
 * Bytes of text in the `parley://questions/{id}` resource's page: smaller, because the
 * resource carries the page twice (JSON and Markdown).
 */
export const MCP_RESOURCE_TEXT_BUDGET = 8_000;

/** Which part of a thread to show. */
export interface McpThreadQuery {
  id: string;
  page: number;
  sort: "votes" | "newest" | "oldest";
  answer?: string;
  replyPage?: number;
}

/** A message as MCP shows it. */
export type McpMessageView = Omit<MessageViewBase, "hiddenAt"> & { clipped?: true };

/** `get_question`'s answer (lib/schemas/mcp.ts `QuestionThreadPage`). */
export interface McpThreadPage {
  id: string;
  title: string;
  description: string;
  tags: string[];
  author: { id: string; name: string; avatar: string | null };
  createdAt: number;
  upvotes: number;
  downvotes: number;
  answerCount: number;
  messageCount: number;
  acceptedMessageId: string | null;
  clipped?: true;
  messages: McpMessageView[];
  sort: "votes" | "newest" | "oldest";
  page: number;
  pageCount: number;
  replyCounts: { answerId: string; replies: number }[];
  replyPage?: number;
  replyPageCount?: number;
  [field: string]: unknown;
}

/**
 * The `read_post` call that returns a post whole (named in clipped texts' notes).
 *
 * @example
 * ```ts
 * readPostCall("message", "msg-1"); // 'read_post {targetType: "message", id: "msg-1"}'
 * ```
 */
export function readPostCall(targetType: "question" | "message", id: string): string {
  return `read_post {targetType: "${targetType}", id: ${JSON.stringify(id)}}`;
}

/**
 * `messages` (answers each followed by their replies) as one group per answer. A reply
 * whose parent is not among them (hidden from this reader) is left out with it.
 */
function byAnswer<M extends { id: string; replyTo?: string }>(messages: M[]): M[][] {
  const groups: M[][] = [];
  const groupOf = new Map<string, M[]>();
  for (const m of messages) {
    const group = m.replyTo === undefined ? [] : groupOf.get(m.replyTo);
    if (!group) continue;
    if (m.replyTo === undefined) groups.push(group);
    group.push(m);
    groupOf.set(m.id, group);
  }
  return groups;
}

/**
 * One bounded page of a thread as `viewer` may see it, or null when the question is not
 * there for them. `budget` is the bytes of text the page's texts share.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const page = await mcpThreadPage(kv, { id: "q-1", page: 1, sort: "votes" }, { userId: "u1" });
 * page?.messages.length; // at most 10 answers + 2 replies each
 * ```
 */
export async function mcpThreadPage(
  kv: Deno.Kv,
  query: McpThreadQuery,
  viewer: Viewer | null,
  budget = MCP_PAGE_TEXT_BUDGET,
): Promise<McpThreadPage | null> {
  const single = query.answer !== undefined;
  const perDomainPage = single
    ? REPLIES_PER_ANSWER / ANSWER_REPLIES_PAGE_SIZE
    : ANSWERS_PER_PAGE / THREAD_PAGE_SIZE;
  const wanted = single ? query.replyPage ?? 1 : query.page;
  const domainPage = Math.ceil(wanted / perDomainPage);
  const offset = ((wanted - 1) % perDomainPage) *
    (single ? ANSWER_REPLIES_PAGE_SIZE : THREAD_PAGE_SIZE);
  const domain = await getQuestionThreadPage(
    kv,
    query.id,
    single
      ? { sort: query.sort, page: 1, answer: query.answer, replyPage: domainPage }
      : { sort: query.sort, page: domainPage },
    viewer,
    { voters: false },
  );
  if (!domain) return null;

  let shown: MessageViewBase[];
  let replyCounts = domain.replyCounts;
  const extra: Pick<McpThreadPage, "replyPage" | "replyPageCount"> = {};
  if (single) {
    const group = byAnswer(domain.messages).find((g) => g[0].id === query.answer);
    const [answer, ...replies] = group ?? [];
    shown = answer ? [answer, ...replies.slice(offset, offset + ANSWER_REPLIES_PAGE_SIZE)] : [];
    // An answer not shown (no such answer, or hidden from this reader) has no counts either.
    if (!answer) replyCounts = [];
    const total = replyCounts[0]?.replies ?? 0;
    extra.replyPage = wanted;
    extra.replyPageCount = Math.max(1, Math.ceil(total / ANSWER_REPLIES_PAGE_SIZE));
  } else {
    const groups = byAnswer(domain.messages).slice(offset, offset + THREAD_PAGE_SIZE);
    shown = groups.flatMap(([answer, ...replies]) => [
      answer,
      ...replies.slice(0, THREAD_PAGE_REPLIES),
    ]);
    const ids = new Set(groups.map((g) => g[0].id));
    replyCounts = replyCounts.filter((r) => ids.has(r.answerId));
  }

  const fitted = fitTexts(
    [
      { text: domain.description, whole: readPostCall("question", domain.id) },
      ...shown.map((m) => ({ text: m.content, whole: readPostCall("message", m.id) })),
    ],
    budget,
    { leadShare: MCP_DESCRIPTION_SHARE },
  );
  const { messages: _all, ...question } = domain;
  return {
    ...question,
    author: compactAuthor(domain.author),
    description: fitted[0].text,
    ...(fitted[0].clipped ? { clipped: true as const } : {}),
    messages: shown.map((m, i) => ({
      ...m,
      author: compactAuthor(m.author),
      content: fitted[i + 1].text,
      ...(fitted[i + 1].clipped ? { clipped: true as const } : {}),
    })),
    sort: domain.sort,
    page: single ? 1 : query.page,
    pageCount: Math.max(1, Math.ceil(domain.answerCount / THREAD_PAGE_SIZE)),
    replyCounts,
    ...extra,
  } as McpThreadPage;
}

/** `read_post`'s answer. */
export type ReadPost =
  | { targetType: "question"; question: Record<string, unknown> }
  | { targetType: "message"; message: Record<string, unknown> };

/**
 * One post whole, as `viewer` may see it: a question without its thread, or an answer or
 * reply with its question's title. Null when it is not there for them (deleted, hidden
 * from them, or its question is).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const post = await readPost(kv, "message", "msg-1", { userId: "u1" });
 * ```
 */
export async function readPost(
  kv: Deno.Kv,
  targetType: "question" | "message",
  id: string,
  viewer: Viewer | null,
): Promise<ReadPost | null> {
  if (targetType === "question") {
    const q = await getQuestion(kv, id, viewer);
    if (!q) return null;
    const view = await questionViewOf(kv, q, { voters: false });
    return { targetType, question: { ...view, author: compactAuthor(view.author) } };
  }
  if (!isLookupId(id)) return null;
  const m = (await kv.get<MessageRecord>(keys.message(id))).value;
  if (!m || m.deletedAt !== undefined || !maySee(m, viewer)) return null;
  const q: QuestionRecord | null = await getQuestion(kv, m.questionId, viewer);
  if (!q) return null;
  const [view] = await messageViews(kv, [m], { voters: false });
  return {
    targetType,
    message: { ...view, author: compactAuthor(view.author), questionTitle: q.title },
  };
}

/** A date as `2025-06-18`. */
function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `text` as a Markdown block quote. */
function quoted(text: string): string {
  return text.split("\n").map((line) => line ? `> ${line}` : ">").join("\n");
}

/**
 * A thread page as Markdown, for a model to read: the question, then each answer as a
 * section with its replies quoted under it.
 *
 * @example
 * ```ts
 * declare const page: McpThreadPage;
 * const md = threadMarkdown(page, "https://parley.example");
 * ```
 */
export function threadMarkdown(page: McpThreadPage, origin?: string): string {
  const votes = (up: number, down: number) => `${up} up, ${down} down`;
  const lines = [
    `# ${page.title}`,
    "",
    [
      `Asked by ${page.author.name} on ${day(page.createdAt)}`,
      page.tags.length ? `tags: ${page.tags.join(", ")}` : null,
      votes(page.upvotes, page.downvotes),
      `${page.answerCount} answer${page.answerCount === 1 ? "" : "s"}`,
      `id ${page.id}`,
    ].filter(Boolean).join(" · "),
  ];
  if (origin) lines.push("", `${origin}/questions/${encodeURIComponent(page.id)}`);
  lines.push("", page.description || "(no description)");
  if (page.messages.length) {
    const which = page.replyPage !== undefined
      ? `one answer, replies page ${page.replyPage} of ${page.replyPageCount}`
      : `page ${page.page} of ${page.pageCount}, by ${page.sort}`;
    lines.push("", `## Answers (${which})`);
  }
  for (const m of page.messages) {
    const head = [
      m.author.name,
      day(m.createdAt),
      votes(m.upvotes, m.downvotes),
      m.id === page.acceptedMessageId ? "accepted" : null,
      `id ${m.id}`,
    ].filter(Boolean).join(" · ");
    const body = m.deleted ? "[deleted]" : m.content;
    if (m.replyTo === undefined) lines.push("", `### Answer by ${head}`, "", body);
    else lines.push("", quoted(`**Reply by ${head}**\n\n${body}`));
  }
  if (page.replyPage === undefined) {
    const more = page.replyCounts.filter((r) => r.replies > THREAD_PAGE_REPLIES);
    if (more.length) {
      const list = more.map((r) => `${r.answerId} (${r.replies})`).join(", ");
      lines.push("", `More replies under ${list}: get_question with answer shows them.`);
    }
  } else if ((page.replyPageCount ?? 1) > page.replyPage) {
    lines.push("", `More replies: replyPage ${page.replyPage + 1} of ${page.replyPageCount}.`);
  }
  return lines.join("\n") + "\n";
}

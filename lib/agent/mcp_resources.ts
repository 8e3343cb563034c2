/**
 * Questions as MCP resources (docs/interface.md#mcp): the template
 * `parley://questions/{id}`, whose read is the question with the first page of its
 * thread as JSON (`get_question`'s answer) and as Markdown, and `resources/list` of the
 * newest questions, {@link RESOURCE_PAGE_SIZE} a page behind an opaque cursor, at most
 * {@link RESOURCE_LIST_MAX} in all (a client that walks every page stops there; older
 * questions are reached by search and the template).
 *
 * Subscriptions are not offered (`subscribe: false`): `/mcp` is stateless — every HTTP
 * request gets a fresh server and nothing stays open to push `notifications/resources/
 * updated` on — so a client polls (`resources/read`) or uses the question's SSE stream
 * (`GET /api/questions/:id/events`).
 *
 * @module
 */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type {
  ListResourcesResult,
  ReadResourceResult,
  ResourceTemplate,
} from "@modelcontextprotocol/sdk/types.js";
import { getQuestions } from "../community/questions/read.ts";
import type { Viewer } from "../community/visibility.ts";
import { InvalidCursorError, listNewestFirst } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { MCP_RESOURCE_TEXT_BUDGET, mcpThreadPage, threadMarkdown } from "./mcp_thread.ts";

/** The question resource template. */
export const QUESTION_URI_TEMPLATE = "parley://questions/{id}";

/** Questions per page of `resources/list`. */
export const RESOURCE_PAGE_SIZE = 50;

/** Most questions `resources/list` walks through, over all its pages. */
export const RESOURCE_LIST_MAX = 200;

/** MCP's "Resource not found" error code. */
const RESOURCE_NOT_FOUND = -32002;

/**
 * The resource URI of a question.
 *
 * @example
 * ```ts
 * questionUri("q-abc"); // "parley://questions/q-abc"
 * ```
 */
export function questionUri(id: string): string {
  return `parley://questions/${encodeURIComponent(id)}`;
}

/**
 * The question id a resource URI names, or null when it names none.
 *
 * @example
 * ```ts
 * questionIdOfUri("parley://questions/q-abc"); // "q-abc"
 * ```
 */
export function questionIdOfUri(uri: string): string | null {
  const match = /^parley:\/\/questions\/([^/?#]+)$/.exec(uri);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/**
 * `resources/templates/list`'s templates.
 *
 * @example
 * ```ts
 * questionResourceTemplates()[0].uriTemplate; // "parley://questions/{id}"
 * ```
 */
export function questionResourceTemplates(): ResourceTemplate[] {
  return [{
    uriTemplate: QUESTION_URI_TEMPLATE,
    name: "question",
    title: "A Parley question",
    description:
      "A question with the first page of its thread (10 top-level answers, 2 replies each, long texts clipped), as JSON (the get_question tool's answer) and as Markdown. The id completes from recent questions.",
    mimeType: "application/json",
  }];
}

/** The cursor of page `n` (2-based: page 1 has none) resuming at the KV cursor `at`. */
function encodeCursor(n: number, at: string): string {
  return `${n}.${at}`;
}

function decodeCursor(cursor: string): { n: number; at: string } {
  const match = /^(\d{1,4})\.(.+)$/.exec(cursor);
  const n = match ? Number(match[1]) : NaN;
  if (!match || n < 2 || (n - 1) * RESOURCE_PAGE_SIZE >= RESOURCE_LIST_MAX) {
    throw new McpError(ErrorCode.InvalidParams, "Invalid cursor");
  }
  return { n, at: match[2] };
}

/**
 * One page of `resources/list`: the newest questions, each as its resource.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { resources, nextCursor } = await listQuestionResources(kv);
 * if (nextCursor) await listQuestionResources(kv, nextCursor);
 * ```
 */
export async function listQuestionResources(
  kv: Deno.Kv,
  cursor?: string,
): Promise<ListResourcesResult> {
  const { n, at } = cursor === undefined ? { n: 1, at: undefined } : decodeCursor(cursor);
  let page;
  try {
    page = await listNewestFirst<string>(kv, keys.questionsByTimePrefix(), {
      limit: RESOURCE_PAGE_SIZE,
      cursor: at,
    });
  } catch (err) {
    if (err instanceof InvalidCursorError) {
      throw new McpError(ErrorCode.InvalidParams, "Invalid cursor");
    }
    throw err;
  }
  const questions = await getQuestions(kv, page.values);
  const last = n * RESOURCE_PAGE_SIZE >= RESOURCE_LIST_MAX;
  return {
    resources: questions.map((q) => ({
      uri: questionUri(q.id),
      name: q.id,
      title: q.title,
      description: [
        `Asked ${new Date(q.createdAt).toISOString().slice(0, 10)} by ${q.author.name}`,
        q.tags.length ? `tags: ${q.tags.join(", ")}` : null,
      ].filter(Boolean).join(" · "),
      mimeType: "application/json",
      annotations: { lastModified: new Date(q.editedAt ?? q.createdAt).toISOString() },
    })),
    ...(page.cursor && !last ? { nextCursor: encodeCursor(n + 1, page.cursor) } : {}),
  };
}

/**
 * `resources/read` of a question's URI, as `viewer` may see it: the first thread page as
 * JSON and as Markdown. An unknown URI or question is MCP's "Resource not found".
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { contents } = await readQuestionResource(kv, "parley://questions/q-abc", null);
 * ```
 */
export async function readQuestionResource(
  kv: Deno.Kv,
  uri: string,
  viewer: Viewer | null,
  origin?: string,
): Promise<ReadResourceResult> {
  const id = questionIdOfUri(uri);
  const page = id === null
    ? null
    : await mcpThreadPage(kv, { id, page: 1, sort: "votes" }, viewer, MCP_RESOURCE_TEXT_BUDGET);
  if (!page) throw new McpError(RESOURCE_NOT_FOUND, "Resource not found", { uri });
  return {
    contents: [
      { uri, mimeType: "application/json", text: JSON.stringify(page) },
      { uri, mimeType: "text/markdown", text: threadMarkdown(page, origin) },
    ],
  };
}

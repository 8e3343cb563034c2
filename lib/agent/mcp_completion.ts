/**
 * MCP argument completion (`completion/complete`, docs/interface.md#mcp): question ids
 * for the `id` of `answer_question`, `summarize_thread` and the `parley://questions/{id}`
 * template — the ids of the {@link ID_SCAN} newest questions that start with what was
 * typed — and tag names for `draft_question`'s `topic`, from the tag index (tags that
 * start with what was typed, those with the most live questions first). At most
 * {@link COMPLETION_MAX} values, as MCP allows.
 *
 * @module
 */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { CompleteRequest, CompleteResult } from "@modelcontextprotocol/sdk/types.js";
import { getQuestions } from "../community/questions/read.ts";
import { tagKey } from "../community/questions/model.ts";
import { tagFeed } from "../community/questions/holes.ts";
import { counterValue, getAll } from "../kv/atomic.ts";
import { EVENTUAL } from "../kv/consistency.ts";
import { keys } from "../kv/keys.ts";
import { type CompletionSource, MCP_PROMPTS } from "./mcp_prompts.ts";
import { QUESTION_URI_TEMPLATE } from "./mcp_resources.ts";

/** Most values one completion answers (MCP's limit). */
export const COMPLETION_MAX = 100;

/** How many of the newest questions an id completion looks through. */
export const ID_SCAN = 200;

/** How many tags starting with the prefix a tag completion reads and ranks. */
export const TAG_SCAN = 200;

type Completion = CompleteResult["completion"];

/**
 * Ids of recent public questions starting with `prefix`, newest first.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { values } = await completeQuestionIds(kv, "q-");
 * ```
 */
export async function completeQuestionIds(kv: Deno.Kv, prefix: string): Promise<Completion> {
  const matches: string[] = [];
  let more = false;
  const rows = kv.list<string>({ prefix: keys.questionsByTimePrefix() }, {
    limit: ID_SCAN,
    ...EVENTUAL,
  });
  for await (const row of rows) {
    if (!row.value.startsWith(prefix)) continue;
    if (matches.length === COMPLETION_MAX) {
      more = true;
      break;
    }
    matches.push(row.value);
  }
  // Deleted and hidden questions are left out.
  const values = (await getQuestions(kv, matches)).map((q) => q.id);
  return { values, hasMore: more };
}

/**
 * Tag names starting with `prefix` (in the tags' canonical form), the most used first.
 * Tags none of whose questions is left are not offered.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { values } = await completeTags(kv, "De"); // ["deno", "deno-kv", …]
 * ```
 */
export async function completeTags(kv: Deno.Kv, prefix: string): Promise<Completion> {
  const start = tagKey(prefix);
  const heads: { tag: string; head: number }[] = [];
  let more = false;
  const rows = kv.list<number>({
    start: [...keys.tagSeqHeadsPrefix(), start],
    end: [...keys.tagSeqHeadsPrefix(), start + "\u{10FFFF}"],
  }, { limit: TAG_SCAN + 1, ...EVENTUAL });
  for await (const row of rows) {
    if (heads.length === TAG_SCAN) {
      more = true;
      break;
    }
    heads.push({ tag: String(row.key[row.key.length - 1]), head: row.value });
  }
  const holes = await getAll(kv, heads.map((h) => keys.seqHoleCount(tagFeed(h.tag))));
  const live = heads.map((h, i) => ({ tag: h.tag, count: h.head - counterValue(holes[i].value) }))
    .filter((t) => t.count > 0)
    .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1));
  return {
    values: live.slice(0, COMPLETION_MAX).map((t) => t.tag),
    total: more ? undefined : live.length,
    hasMore: more || live.length > COMPLETION_MAX,
  };
}

/** What the argument `argument` of `ref` completes from, or an Invalid-params error. */
function sourceOf(
  ref: CompleteRequest["params"]["ref"],
  argument: string,
): CompletionSource | null {
  if (ref.type === "ref/resource") {
    if (ref.uri !== QUESTION_URI_TEMPLATE) {
      throw new McpError(ErrorCode.InvalidParams, `Resource template ${ref.uri} not found`);
    }
    return argument === "id" ? "questionId" : null;
  }
  const prompt = MCP_PROMPTS.find((p) => p.name === ref.name);
  if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Prompt ${ref.name} not found`);
  return prompt.arguments.find((a) => a.name === argument)?.completes ?? null;
}

/**
 * Answer `completion/complete`: the values for the argument being typed (none for an
 * argument that has no completion); Invalid params for an unknown prompt or template.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await completeMcpArgument(kv, {
 *   ref: { type: "ref/prompt", name: "draft_question" },
 *   argument: { name: "topic", value: "de" },
 * });
 * ```
 */
export async function completeMcpArgument(
  kv: Deno.Kv,
  params: Pick<CompleteRequest["params"], "ref" | "argument">,
): Promise<CompleteResult> {
  const source = sourceOf(params.ref, params.argument.name);
  const typed = params.argument.value.slice(0, 200);
  if (source === "questionId") return { completion: await completeQuestionIds(kv, typed.trim()) };
  if (source === "tag") return { completion: await completeTags(kv, typed) };
  return { completion: { values: [], total: 0, hasMore: false } };
}

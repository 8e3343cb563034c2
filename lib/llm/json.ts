/**
 * Structured answers: ask the model for a JSON object, validate it with zod, give a
 * malformed answer exactly one repair attempt, and otherwise fall back to a safe value.
 * Transport failures (timeouts, unreachable model) are not papered over: they throw
 * `LlmError`, so the caller can report a failure instead of inventing an answer.
 *
 * @module
 */
import type { z } from "zod";
import type { ChatMessage, ChatOptions, LlmClient } from "./types.ts";

/** Where a structured answer came from. */
export type JsonSource = "model" | "repaired" | "fallback";

/** A validated answer and its provenance. */
export interface JsonAnswer<T> {
  value: T;
  source: JsonSource;
}

/** Options of {@link jsonAnswer}. */
export interface JsonAnswerOptions<T> extends Omit<ChatOptions, "json"> {
  /**
   * The safe value used when neither the answer nor its repair validates. A function
   * receives the last candidate that parsed as JSON (or undefined) to salvage what it can.
   */
  fallback: T | ((candidate: unknown) => T);
  /** Send `response_format: json_object` (default true). */
  jsonMode?: boolean;
}

/**
 * Pull a JSON value out of model text: the whole text, a fenced ```json block, or the
 * outermost `{…}` span. Returns undefined when nothing parses.
 *
 * @example
 * ```ts
 * extractJson('Sure!\n```json\n{"a":1}\n```'); // { a: 1 }
 * ```
 */
export function extractJson(text: string): unknown {
  const attempts = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced) attempts.push(fenced[1].trim());
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  if (first !== -1 && last > first) attempts.push(text.slice(first, last + 1));
  for (const candidate of attempts) {
    if (!candidate) continue;
    try {
      return JSON.parse(candidate);
    } catch {
      // Try the next shape.
    }
  }
  return undefined;
}

/** A short, model-readable list of what failed validation. */
function describeProblems(error: z.ZodError | null): string {
  if (!error) return "The answer was not a JSON object.";
  return error.issues.slice(0, 8).map((i) =>
    `- ${i.path.map(String).join(".") || "(root)"}: ${i.message}`
  ).join("\n");
}

function check<S extends z.ZodType>(
  schema: S,
  text: string,
): { ok: true; value: z.infer<S> } | { ok: false; candidate: unknown; error: z.ZodError | null } {
  const candidate = extractJson(text);
  if (candidate === undefined) return { ok: false, candidate, error: null };
  const parsed = schema.safeParse(candidate);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, candidate, error: parsed.error };
}

/**
 * Ask for a JSON object that satisfies `schema`; repair once, then fall back.
 *
 * @example
 * ```ts
 * import type { LlmClient } from "@/lib/llm/types.ts";
 * import type { ChatMessage } from "@/lib/llm/types.ts";
 * import { z } from "zod";
 * declare const llm: LlmClient;
 * declare const messages: ChatMessage[];
 * const Verdict = z.object({ winner: z.enum(["user", "opponent", "tie"]) });
 * const { value, source } = await jsonAnswer(llm, messages, Verdict, {
 *   temperature: 0.3,
 *   fallback: { winner: "tie" },
 * });
 * ```
 * @throws {LlmError} when the model cannot be reached or times out.
 */
export async function jsonAnswer<S extends z.ZodType>(
  llm: LlmClient,
  messages: ChatMessage[],
  schema: S,
  opts: JsonAnswerOptions<z.infer<S>>,
): Promise<JsonAnswer<z.infer<S>>> {
  const { fallback, jsonMode = true, ...call } = opts;
  const first = await llm.chat(messages, { ...call, json: jsonMode });
  const firstCheck = check(schema, first);
  if (firstCheck.ok) return { value: firstCheck.value, source: "model" };

  const repairPrompt: ChatMessage[] = [
    ...messages,
    { role: "assistant", content: first.slice(0, 8000) },
    {
      role: "user",
      content: `That answer is not valid JSON for the requested shape:\n${
        describeProblems(firstCheck.error)
      }\nReply again with only the corrected JSON object, nothing else.`,
    },
  ];
  const second = await llm.chat(repairPrompt, { ...call, json: jsonMode });
  const secondCheck = check(schema, second);
  if (secondCheck.ok) return { value: secondCheck.value, source: "repaired" };

  const candidate = secondCheck.candidate ?? firstCheck.candidate;
  const value = typeof fallback === "function"
    ? (fallback as (c: unknown) => z.infer<S>)(candidate)
    : fallback;
  return { value, source: "fallback" };
}

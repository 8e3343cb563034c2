/**
 * The stand-in model as an OpenAI-compatible `POST /v1/chat/completions`: the same
 * request and response shapes (a completion object, or a stream of chunk objects), so the
 * real `openai` client talks to it exactly as to OpenAI. The HTTP edge
 * (lib/http/openai.ts) writes them as JSON or as SSE `data: {chunk}` lines ending in
 * `data: [DONE]`.
 *
 * @module
 */
import { type StandInRequest, StandInRequestSchema } from "../../schemas/llm.ts";
import type { ChatMessage } from "../types.ts";
import { STANDIN_MODEL } from "../from_config.ts";
import { composeAnswer } from "./compose.ts";
import { readPrompt } from "./read_prompt.ts";
import { composeExpert, readExpert } from "./expert.ts";
import { composeInsight } from "./insights.ts";
import { composeRoundtableJson } from "./roundtable.ts";

/** Pacing of streamed answers (tests and the benchmark may change it). */
export const standInPacing = {
  /** Pause between streamed words, in ms, so a browser sees text being written. */
  wordDelayMs: 25,
};

function toChatMessages(req: StandInRequest): ChatMessage[] {
  return req.messages.map((m) => ({
    role: m.role === "system" || m.role === "assistant" ? m.role : "user",
    content: typeof m.content === "string"
      ? m.content
      : (m.content ?? []).map((p) => p.text ?? "").join(""),
  }));
}

/**
 * The answer text for a request: honours the length it asks for, `max_tokens` (about
 * four characters a token) and, for JSON, returns a valid JSON object.
 */
export function standInAnswer(req: StandInRequest): string {
  const json = req.response_format?.type === "json_object" ||
    req.response_format?.type === "json_schema";
  const messages = toChatMessages(req);
  const reading = readPrompt(messages, json);
  // An opinion map or thread summary (lib/insights/prompts.ts): built from the answers.
  const insight = reading.wantsJson
    ? composeInsight(messages.filter((m) => m.role === "user").map((m) => m.content).join("\n"))
    : null;
  if (insight) return insight;
  const all = messages.map((m) => m.content).join("\n");
  // A roundtable's panel or minutes: JSON shaped for that roundtable.
  const roundtable = composeRoundtableJson(all, reading);
  if (roundtable) return roundtable;
  // Seated on the AI expert panel: a short message in that expert's field.
  const expert = reading.wantsJson ? null : readExpert(all);
  const text = expert
    ? composeExpert(expert, reading.topic, {
      seed: reading.seed,
      minChars: reading.minChars,
      maxChars: Math.min(reading.maxChars, 480),
    })
    : composeAnswer(reading);
  if (!reading.wantsJson && req.max_tokens) {
    const cap = req.max_tokens * 4;
    if (text.length > cap) return text.slice(0, cap);
  }
  return text;
}

/** Split text into OpenAI-like tokens: words carrying their leading space. */
export function tokensOf(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An OpenAI chat completion chunk (one frame of a streamed answer). */
export interface CompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  choices: {
    index: number;
    delta: Record<string, unknown>;
    finish_reason: string | null;
    logprobs: null;
  }[];
}

/** The outcome of a chat completion request. */
export type StandInCompletion =
  | { ok: false; reason: "invalid_request"; message: string }
  | { ok: true; stream: false; completion: Record<string, unknown> }
  | { ok: true; stream: true; chunks: AsyncGenerator<CompletionChunk> };

/**
 * Answer a chat completion request body (already parsed as JSON): the completion, the
 * paced chunks of a streamed one, or why the request is invalid.
 *
 * @example
 * ```ts
 * const outcome = standInCompletion({ messages: [{ role: "user", content: "Hi" }] });
 * ```
 */
export function standInCompletion(body: unknown): StandInCompletion {
  const parsed = StandInRequestSchema.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      reason: "invalid_request",
      message: `Invalid chat completion request: ${parsed.error.issues[0].message}`,
    };
  }
  const req = parsed.data;
  const text = standInAnswer(req);
  const id = `chatcmpl-standin-${crypto.randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const model = req.model || STANDIN_MODEL;
  const promptChars = req.messages.reduce(
    (n, m) => n + (typeof m.content === "string" ? m.content.length : 0),
    0,
  );
  const usage = {
    prompt_tokens: Math.ceil(promptChars / 4),
    completion_tokens: Math.ceil(text.length / 4),
    total_tokens: Math.ceil(promptChars / 4) + Math.ceil(text.length / 4),
  };

  if (!req.stream) {
    return {
      ok: true,
      stream: false,
      completion: {
        id,
        object: "chat.completion",
        created,
        model,
        choices: [{
          index: 0,
          message: { role: "assistant", content: text, refusal: null },
          finish_reason: "stop",
          logprobs: null,
        }],
        usage,
      },
    };
  }

  const chunk = (
    delta: Record<string, unknown>,
    finish: string | null = null,
  ): CompletionChunk => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  async function* chunks(): AsyncGenerator<CompletionChunk> {
    yield chunk({ role: "assistant", content: "" });
    for (const token of tokensOf(text)) {
      if (standInPacing.wordDelayMs > 0) await sleep(standInPacing.wordDelayMs);
      yield chunk({ content: token });
    }
    yield chunk({}, "stop");
  }
  return { ok: true, stream: true, chunks: chunks() };
}

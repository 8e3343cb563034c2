/**
 * The language-model interface the rest of Parley uses. Features depend on this shape,
 * never on the `openai` package directly, so tests and the stand-in model plug in at the
 * HTTP level while every call still goes through the real client.
 *
 * @module
 */

/** One chat message, as OpenAI's chat completions API takes it. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Options of one model call. */
export interface ChatOptions {
  /** Sampling temperature (debate turns 0.8, analysis 0.3). */
  temperature?: number;
  /** Upper bound on generated tokens. */
  maxTokens?: number;
  /** Ask for a JSON object (`response_format: json_object`). */
  json?: boolean;
  /** Deadline for the whole call, streaming included, in ms (default: the client's). */
  timeoutMs?: number;
  /** Cancels the call (e.g. a streamed turn that already has all the text it can use). */
  signal?: AbortSignal;
}

/**
 * A chat model reached through the `openai` client.
 *
 * @example
 * ```ts
 * import type { LlmClient } from "@/lib/llm/types.ts";
 * import type { ChatMessage } from "@/lib/llm/types.ts";
 * declare const llm: LlmClient;
 * declare const messages: ChatMessage[];
 * const text = await llm.chat([{ role: "user", content: "Say hi" }], { temperature: 0.3 });
 * for await (const delta of llm.stream(messages, { temperature: 0.8 })) console.log(delta);
 * ```
 */
export interface LlmClient {
  /** Model name sent with every call. */
  readonly model: string;
  /** True when the answers come from Parley's offline stand-in (local mode); the UI labels them. */
  readonly standIn: boolean;
  /** One complete answer. */
  chat(messages: ChatMessage[], opts?: ChatOptions): Promise<string>;
  /** The answer as text deltas, in order, as the model writes them. */
  stream(messages: ChatMessage[], opts?: ChatOptions): AsyncIterable<string>;
}

/** Why a model call failed. */
export type LlmErrorKind = "timeout" | "unavailable" | "aborted" | "bad_response";

/** A model call that failed after its retry; `message` is safe to log (no keys, no prompts). */
export class LlmError extends Error {
  constructor(readonly kind: LlmErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LlmError";
  }
}

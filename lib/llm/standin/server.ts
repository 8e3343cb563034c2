/**
 * The stand-in model as an OpenAI-compatible `POST /v1/chat/completions`: the same
 * request and response shapes (JSON, or SSE `data: {chunk}` lines ending in
 * `data: [DONE]`), so the real `openai` client talks to it exactly as to OpenAI.
 *
 * @module
 */
import { z } from "zod";
import type { ChatMessage } from "../types.ts";
import { STANDIN_MODEL } from "../from_config.ts";
import { composeAnswer } from "./compose.ts";
import { readPrompt } from "./read_prompt.ts";

/** Pacing of streamed answers (tests and the benchmark may change it). */
export const standInPacing = {
  /** Pause between streamed words, in ms, so a browser sees text being written. */
  wordDelayMs: 25,
};

const ContentPart = z.object({ type: z.string(), text: z.string().optional() }).loose();

/** The subset of OpenAI's chat completion request the stand-in reads. */
export const StandInRequestSchema = z.object({
  model: z.string().optional(),
  messages: z.array(
    z.object({
      role: z.string(),
      content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
    }).loose(),
  ).min(1).max(200),
  stream: z.boolean().nullish(),
  temperature: z.number().nullish(),
  max_tokens: z.number().int().positive().nullish(),
  response_format: z.object({ type: z.string() }).loose().nullish(),
}).loose();

/** A validated stand-in request. */
export type StandInRequest = z.infer<typeof StandInRequestSchema>;

/** An error body in OpenAI's shape. */
export function openAiError(status: number, message: string): Response {
  return Response.json(
    { error: { message, type: "invalid_request_error", param: null, code: null } },
    { status },
  );
}

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
  const reading = readPrompt(toChatMessages(req), json);
  const text = composeAnswer(reading);
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

/**
 * Answer a chat completion request body (already parsed as JSON).
 *
 * @example
 * ```ts
 * const res = standInCompletion(await req.json());
 * ```
 */
export function standInCompletion(body: unknown): Response {
  const parsed = StandInRequestSchema.safeParse(body);
  if (!parsed.success) {
    return openAiError(400, `Invalid chat completion request: ${parsed.error.issues[0].message}`);
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
    return Response.json({
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
    });
  }

  const encoder = new TextEncoder();
  const frame = (delta: Record<string, unknown>, finish: string | null = null) =>
    encoder.encode(
      `data: ${
        JSON.stringify({
          id,
          object: "chat.completion.chunk",
          created,
          model,
          choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
        })
      }\n\n`,
    );
  let cancelled = false;
  const body$ = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        controller.enqueue(frame({ role: "assistant", content: "" }));
        for (const token of tokensOf(text)) {
          if (cancelled) return;
          if (standInPacing.wordDelayMs > 0) await sleep(standInPacing.wordDelayMs);
          if (cancelled) return;
          controller.enqueue(frame({ content: token }));
        }
        controller.enqueue(frame({}, "stop"));
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      } catch {
        // The reader went away mid-answer: nothing left to do.
      }
    },
    cancel() {
      cancelled = true;
    },
  });
  return new Response(body$, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

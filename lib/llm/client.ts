/**
 * The `LlmClient` over the `openai` package: any OpenAI-compatible endpoint (OpenAI, a
 * fake server in tests, or Parley's own stand-in route in local mode). Each call has a
 * deadline covering the whole answer, streaming included; transient failures before an
 * answer starts (connection errors, 408/409/429/5xx) are retried once by the client.
 *
 * @module
 */
import { lazyOpenAiClient, openAiLoaded } from "./openai_module.ts";
import { type ChatMessage, type ChatOptions, type LlmClient, LlmError } from "./types.ts";

/** Default deadline of one call, in ms. */
export const DEFAULT_LLM_TIMEOUT_MS = 60_000;

/** Options of {@link createLlmClient}. */
export interface LlmClientOptions {
  apiKey: string;
  /** Base URL up to and including `/v1` (e.g. `https://api.openai.com/v1`). */
  baseURL: string;
  model: string;
  /** Transport (default: global fetch). Local mode dispatches into the app itself. */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Deadline of each call in ms (default 60 s). */
  timeoutMs?: number;
  /** Retries of a transient failure (default 1). */
  maxRetries?: number;
  /** Marks answers as coming from the offline stand-in model. */
  standIn?: boolean;
}

/**
 * A per-call deadline combined with the caller's own signal (shared with the embeddings
 * client, lib/search/embeddings.ts).
 *
 * @example
 * ```ts
 * const deadline = callDeadline(2_000);
 * try {
 *   await fetch("http://127.0.0.1:9/", { signal: deadline.signal });
 * } finally {
 *   deadline.finish(false);
 * }
 * ```
 */
export function callDeadline(timeoutMs: number, outer?: AbortSignal) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onOuterAbort = () => controller.abort();
  if (outer?.aborted) controller.abort();
  else outer?.addEventListener("abort", onOuterAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    /** Stop the timer; `abort` also cancels a request still in flight. */
    finish(abort: boolean) {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuterAbort);
      if (abort && !controller.signal.aborted) controller.abort();
    },
  };
}

/**
 * Turn whatever the client threw into an {@link LlmError} that is safe to log.
 *
 * @example
 * ```ts
 * const err = toLlmError(new Error("socket hang up"), 2_000, false);
 * err.kind; // "bad_response"
 * ```
 */
export function toLlmError(
  err: unknown,
  timeoutMs: number,
  timedOut: boolean,
  outer?: AbortSignal,
): LlmError {
  if (err instanceof LlmError) return err;
  // The package's error classes exist only once it was imported, which a call does first.
  const api = openAiLoaded();
  if (timedOut || (api && err instanceof api.APIConnectionTimeoutError)) {
    return new LlmError("timeout", `The model did not answer within ${timeoutMs} ms`, {
      cause: err,
    });
  }
  if (outer?.aborted) {
    return new LlmError("aborted", "The model call was cancelled", { cause: err });
  }
  if (api && err instanceof api.APIConnectionError) {
    return new LlmError("unavailable", "The model could not be reached", { cause: err });
  }
  if (api && err instanceof api.APIError && err.status) {
    return new LlmError("unavailable", `The model answered HTTP ${err.status}`, { cause: err });
  }
  const detail = err instanceof Error ? err.message : String(err);
  return new LlmError("bad_response", `The model's answer broke off: ${detail.slice(0, 200)}`, {
    cause: err,
  });
}

/**
 * Create a client for an OpenAI-compatible chat completions endpoint.
 *
 * @example
 * ```ts
 * const llm = createLlmClient({ apiKey: "sk-…", baseURL: "https://api.openai.com/v1", model: "gpt-4o-mini" });
 * const answer = await llm.chat([{ role: "user", content: "One word for joy?" }]);
 * ```
 */
export function createLlmClient(opts: LlmClientOptions): LlmClient {
  const defaultTimeout = opts.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  // The package is imported by the first call (lib/llm/openai_module.ts), not at start-up.
  const client = lazyOpenAiClient({
    apiKey: opts.apiKey,
    baseURL: opts.baseURL,
    maxRetries: opts.maxRetries,
    timeout: defaultTimeout,
    fetch: opts.fetch,
  });
  const model = opts.model;

  function params(messages: ChatMessage[], o: ChatOptions) {
    return {
      model,
      messages,
      ...(o.temperature === undefined ? {} : { temperature: o.temperature }),
      ...(o.maxTokens === undefined ? {} : { max_tokens: o.maxTokens }),
      ...(o.json ? { response_format: { type: "json_object" as const } } : {}),
    };
  }

  return {
    model,
    standIn: opts.standIn ?? false,

    async chat(messages, o = {}) {
      const timeoutMs = o.timeoutMs ?? defaultTimeout;
      const deadline = callDeadline(timeoutMs, o.signal);
      try {
        const res = await (await client()).chat.completions.create(params(messages, o), {
          signal: deadline.signal,
          timeout: timeoutMs,
        });
        const content = res.choices?.[0]?.message?.content;
        if (typeof content !== "string") {
          throw new LlmError("bad_response", "The model's answer carried no text");
        }
        return content;
      } catch (err) {
        throw toLlmError(err, timeoutMs, deadline.timedOut(), o.signal);
      } finally {
        deadline.finish(false);
      }
    },

    async *stream(messages, o = {}) {
      const timeoutMs = o.timeoutMs ?? defaultTimeout;
      const deadline = callDeadline(timeoutMs, o.signal);
      let complete = false;
      try {
        const stream = await (await client()).chat.completions.create(
          { ...params(messages, o), stream: true },
          { signal: deadline.signal, timeout: timeoutMs },
        );
        for await (const chunk of stream) {
          const delta = chunk.choices?.[0]?.delta?.content;
          if (delta) yield delta;
        }
        complete = true;
      } catch (err) {
        throw toLlmError(err, timeoutMs, deadline.timedOut(), o.signal);
      } finally {
        // A consumer that stops early (break) cancels the request still streaming.
        deadline.finish(!complete);
      }
    },
  };
}

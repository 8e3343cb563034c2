/**
 * Embeddings for semantic search over the OpenAI-compatible `/embeddings` endpoint, through
 * the same `openai` package and configuration as the chat model (lib/llm/client.ts): the
 * configured endpoint and key with `LLM_EMBEDDING_MODEL`, or in local mode without a key the
 * app's own stand-in (lib/llm/standin/embeddings.ts). Every vector comes back
 * L2-normalized, `dims` long (`LLM_EMBEDDING_DIMENSIONS`, asked of the model as
 * `dimensions`), in the order of the texts.
 *
 * @module
 */
import { lazyOpenAiClient, openAiLoaded } from "../llm/openai_module.ts";
import type { Config } from "../config.ts";
import { callDeadline, toLlmError } from "../llm/client.ts";
import {
  type AppFetch,
  DEFAULT_LLM_BASE_URL,
  fetchIntoApp,
  STANDIN_BASE_PATH,
  standInEnabled,
} from "../llm/from_config.ts";
import { STANDIN_EMBEDDING_MODEL } from "../llm/standin/embedding_model.ts";
import { LlmError } from "../llm/types.ts";
import { l2Normalize } from "./vectors.ts";

/** Default deadline of one embeddings call, in ms (a background batch). */
export const DEFAULT_EMBEDDING_TIMEOUT_MS = 10_000;

/** Options of one {@link Embedder.embed} call. */
export interface EmbedOptions {
  /** Deadline for the whole call, retries included, in ms (default: the embedder's). */
  timeoutMs?: number;
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Retries of a transient failure (default 1; a call on a request's path uses 0). */
  maxRetries?: number;
}

/**
 * A text embedding model.
 *
 * @example
 * ```ts
 * import { dot } from "@/lib/search/vectors.ts";
 * declare const embedder: Embedder;
 * const [a, b] = await embedder.embed(["atomic counters", "KV sum"], { timeoutMs: 1_500 });
 * const cosine = dot(a, b);
 * ```
 */
export interface Embedder {
  /** The model's name, stored with every vector (vectors of two models never mix). */
  readonly model: string;
  /** The length of every vector. */
  readonly dims: number;
  /**
   * One L2-normalized vector per text, in order. Throws an `LlmError` (safe to log) when
   * the model fails, times out or answers something that is not that.
   */
  embed(texts: string[], opts?: EmbedOptions): Promise<Float32Array[]>;
}

/** Options of {@link createEmbedder}. */
export interface EmbedderOptions {
  apiKey: string;
  /** Base URL up to and including `/v1`. */
  baseURL: string;
  model: string;
  dims: number;
  /** Transport (default: global fetch). Local mode dispatches into the app itself. */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Deadline of each call in ms (default {@link DEFAULT_EMBEDDING_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/**
 * True when the model refused the input itself (HTTP 400, 413, 422: too long, bad text),
 * so sending the same text again cannot succeed — unlike a timeout or an outage.
 *
 * @example
 * ```ts
 * declare const embedder: Embedder;
 * try {
 *   await embedder.embed(["…"]);
 * } catch (err) {
 *   if (embeddingRejected(err)) console.log("skip this text");
 * }
 * ```
 */
export function embeddingRejected(err: unknown): boolean {
  const cause = err instanceof LlmError ? err.cause : err;
  const api = openAiLoaded(); // a rejection came from a call, which imported the package
  return api !== null && cause instanceof api.APIError &&
    [400, 413, 422].includes(cause.status ?? 0);
}

/**
 * An embedder over an OpenAI-compatible endpoint.
 *
 * @example
 * ```ts
 * const embedder = createEmbedder({
 *   apiKey: "sk-…",
 *   baseURL: "https://api.openai.com/v1",
 *   model: "text-embedding-3-small",
 *   dims: 256,
 * });
 * const [v] = await embedder.embed(["Why is KV eventually consistent?"]);
 * ```
 */
export function createEmbedder(opts: EmbedderOptions): Embedder {
  const defaultTimeout = opts.timeoutMs ?? DEFAULT_EMBEDDING_TIMEOUT_MS;
  // The package is imported by the first call (lib/llm/openai_module.ts), not at start-up.
  const client = lazyOpenAiClient({
    apiKey: opts.apiKey,
    baseURL: opts.baseURL,
    timeout: defaultTimeout,
    fetch: opts.fetch,
  });
  const { model, dims } = opts;
  return {
    model,
    dims,
    async embed(texts, o = {}) {
      if (texts.length === 0) return [];
      const timeoutMs = o.timeoutMs ?? defaultTimeout;
      const deadline = callDeadline(timeoutMs, o.signal);
      try {
        const res = await (await client()).embeddings.create(
          { model, input: texts, dimensions: dims },
          { signal: deadline.signal, timeout: timeoutMs, maxRetries: o.maxRetries ?? 1 },
        );
        return vectorsOf(res.data, texts.length, dims);
      } catch (err) {
        throw toLlmError(err, timeoutMs, deadline.timedOut(), o.signal);
      } finally {
        deadline.finish(false);
      }
    },
  };
}

/** The answer's vectors in input order, checked and normalized. */
function vectorsOf(data: unknown, count: number, dims: number): Float32Array[] {
  if (!Array.isArray(data) || data.length !== count) {
    throw new LlmError(
      "bad_response",
      `The model returned ${
        Array.isArray(data) ? data.length : "no"
      } embeddings for ${count} texts`,
    );
  }
  const out: Float32Array[] = new Array(count);
  for (const [i, item] of data.entries()) {
    const index = typeof item?.index === "number" ? item.index : i;
    const v = item?.embedding as ArrayLike<number> | undefined;
    if (!v || typeof v !== "object" || typeof v.length !== "number") {
      throw new LlmError("bad_response", "The model returned an embedding that is not a vector");
    }
    if (v.length !== dims) {
      throw new LlmError(
        "bad_response",
        `The model returned ${v.length} dimensions, ${dims} were asked for: set LLM_EMBEDDING_DIMENSIONS to ${v.length}`,
      );
    }
    for (let k = 0; k < v.length; k++) {
      if (!Number.isFinite(v[k])) {
        throw new LlmError("bad_response", "The model returned an embedding with non-numbers");
      }
    }
    if (index < 0 || index >= count || out[index]) {
      throw new LlmError("bad_response", "The model returned embeddings out of order");
    }
    out[index] = l2Normalize(v);
  }
  return out;
}

/** Options of {@link embedderFromConfig}. */
export interface EmbedderFromConfigOptions {
  /** The app's handler, looked up at call time (the stand-in is served by the app). */
  appFetch: () => AppFetch;
  /** Deadline per call in ms. */
  timeoutMs?: number;
}

/**
 * The embeddings model for a configuration, chosen as the chat model is
 * (lib/llm/from_config.ts): the configured endpoint when `LLM_API_KEY` is set, the app's
 * stand-in in local mode without a key, otherwise none (semantic rerank is then off and
 * search is lexical only).
 *
 * @example
 * ```ts
 * import type { Config } from "@/lib/config.ts";
 * import type { AppFetch } from "@/lib/llm/from_config.ts";
 * declare const config: Config;
 * let app: { fetch: AppFetch } | undefined;
 * const embedder = embedderFromConfig(config, { appFetch: () => app!.fetch });
 * ```
 */
export function embedderFromConfig(
  config: Config,
  opts: EmbedderFromConfigOptions,
): Embedder | undefined {
  const dims = config.llm.embeddingDimensions;
  if (config.llm.apiKey) {
    return createEmbedder({
      apiKey: config.llm.apiKey,
      baseURL: config.llm.baseUrl ?? DEFAULT_LLM_BASE_URL,
      model: config.llm.embeddingModel,
      dims,
      timeoutMs: opts.timeoutMs,
    });
  }
  if (!standInEnabled(config)) return undefined;
  return createEmbedder({
    // The stand-in needs no key; the client insists on one.
    apiKey: "local-stand-in",
    baseURL: `${config.appOrigin}${STANDIN_BASE_PATH}`,
    model: STANDIN_EMBEDDING_MODEL,
    dims,
    fetch: fetchIntoApp(opts.appFetch),
    timeoutMs: opts.timeoutMs,
  });
}

/**
 * Choosing the language model from configuration (docs/decisions.md#configuration):
 *
 * - `LLM_API_KEY` set: the configured endpoint (`LLM_BASE_URL`, default OpenAI's) and
 *   `LLM_MODEL`.
 * - local mode without a key: Parley's offline stand-in, served by the app itself as an
 *   OpenAI-compatible endpoint at {@link STANDIN_BASE_PATH}. The `openai` client still
 *   makes a real HTTP exchange — a `fetch` that hands a real `Request` to the app's own
 *   handler — so the same code path runs as in production, with or without a port.
 * - otherwise: no model; AI features answer with their failure status.
 *
 * @module
 */
import type { Config } from "../config.ts";
import { createLlmClient } from "./client.ts";
import type { LlmClient } from "./types.ts";

/** Where the stand-in's `/chat/completions` lives inside the app (the client's baseURL). */
export const STANDIN_BASE_PATH = "/api/local-llm/v1";

/** The model name the stand-in reports. */
export const STANDIN_MODEL = "parley-stand-in";

/** OpenAI's endpoint, used when `LLM_BASE_URL` is unset. */
export const DEFAULT_LLM_BASE_URL = "https://api.openai.com/v1";

/**
 * True when the stand-in endpoint is mounted: local mode and no `LLM_API_KEY`.
 *
 * @example
 * ```ts
 * import type { Config } from "@/lib/config.ts";
 * declare const config: Config;
 * const res = standInEnabled(config) ? null : new Response("Not found", { status: 404 });
 * ```
 */
export function standInEnabled(config: Config): boolean {
  return config.localMode && !config.llm.apiKey;
}

/** The app's own request handler (Hono's `app.fetch`). */
export type AppFetch = (req: Request) => Response | Promise<Response>;

/**
 * A `fetch` that dispatches into the app. The caller's abort signal cancels the
 * response body, so a cancelled stream stops the stand-in from writing.
 */
export function fetchIntoApp(appFetch: () => AppFetch) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const res = await appFetch()(req);
    const signal = init?.signal ?? req.signal;
    if (!res.body || !signal) return res;
    const relay = new TransformStream<Uint8Array, Uint8Array>();
    res.body.pipeTo(relay.writable, { signal }).catch(() => {});
    return new Response(relay.readable, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

/** Options of {@link llmFromConfig}. */
export interface LlmFromConfigOptions {
  /** The app's handler, looked up at call time (the app is built after the services). */
  appFetch: () => AppFetch;
  /** Deadline per call in ms. */
  timeoutMs?: number;
}

/**
 * The language model for a configuration, or undefined when none is available.
 *
 * @example
 * ```ts
 * import type { Config } from "@/lib/config.ts";
 * declare const config: Config;
 * let app: { fetch: AppFetch } | undefined;
 * const llm = llmFromConfig(config, { appFetch: () => app!.fetch });
 * app = { fetch: () => new Response("the app, created with llm") };
 * ```
 */
export function llmFromConfig(config: Config, opts: LlmFromConfigOptions): LlmClient | undefined {
  if (config.llm.apiKey) {
    return createLlmClient({
      apiKey: config.llm.apiKey,
      baseURL: config.llm.baseUrl ?? DEFAULT_LLM_BASE_URL,
      model: config.llm.model,
      timeoutMs: opts.timeoutMs,
    });
  }
  if (!standInEnabled(config)) return undefined;
  return createLlmClient({
    // The stand-in needs no key; the client insists on one, so it gets a placeholder.
    apiKey: "local-stand-in",
    baseURL: `${config.appOrigin}${STANDIN_BASE_PATH}`,
    model: STANDIN_MODEL,
    fetch: fetchIntoApp(opts.appFetch),
    timeoutMs: opts.timeoutMs,
    standIn: true,
  });
}

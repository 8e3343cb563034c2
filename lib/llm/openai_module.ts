/**
 * The `openai` package, imported on first use: it is the largest module Parley has, and a
 * new instance's first request (main.ts's start-up budget) never calls a model. Clients
 * are created at start-up but import it with their first call.
 *
 * @module
 */
import { importOnUse } from "../import_on_use.ts";

type OpenAiModule = typeof import("openai");

let loaded: OpenAiModule | null = null;
let loading: Promise<OpenAiModule> | null = null;

/**
 * The `openai` module, imported once (later calls share it).
 *
 * @example
 * ```ts
 * const { default: OpenAI } = await openAiModule();
 * const client = new OpenAI({ apiKey: "sk-…", baseURL: "https://api.openai.com/v1" });
 * ```
 */
export function openAiModule(): Promise<OpenAiModule> {
  // Not `import("openai")`: Deno would resolve the package at start-up (lib/import_on_use.ts).
  loading ??= importOnUse<OpenAiModule>("openai").then((m) => loaded = m).catch((err) => {
    loading = null;
    throw err;
  });
  return loading;
}

/**
 * The `openai` module if it has been imported, else null: its error classes can only have
 * been thrown once it was, so an error check needs no await.
 *
 * @example
 * ```ts
 * declare const err: unknown;
 * const api = openAiLoaded();
 * const status = api && err instanceof api.APIError ? err.status : undefined;
 * ```
 */
export function openAiLoaded(): OpenAiModule | null {
  return loaded;
}

/** How an OpenAI-compatible client is reached (what {@link lazyOpenAiClient} needs). */
export interface OpenAiClientOptions {
  apiKey: string;
  baseURL: string;
  /** Tries after the first on a failed call. Default 1. */
  maxRetries?: number;
  /** Per-call timeout (ms). */
  timeout: number;
  fetch?: typeof fetch;
}

/**
 * A getter of one OpenAI client made with `opts`, created (and the package imported) by
 * the first call; later calls share it. Configuration is `LLM_*` only: the client never
 * picks up `OPENAI_*` variables from the environment, and logs nothing.
 *
 * @example
 * ```ts
 * const client = lazyOpenAiClient({ apiKey: "sk-…", baseURL: "https://api.openai.com/v1", timeout: 30_000 });
 * const models = await (await client()).models.list();
 * ```
 */
export function lazyOpenAiClient(
  opts: OpenAiClientOptions,
): () => Promise<InstanceType<OpenAiModule["default"]>> {
  let created: Promise<InstanceType<OpenAiModule["default"]>> | null = null;
  return () =>
    created ??= openAiModule().then(({ default: OpenAi }) =>
      new OpenAi({
        apiKey: opts.apiKey,
        baseURL: opts.baseURL,
        organization: null,
        project: null,
        maxRetries: opts.maxRetries ?? 1,
        timeout: opts.timeout,
        fetch: opts.fetch,
        logLevel: "off",
      })
    );
}

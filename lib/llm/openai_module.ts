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

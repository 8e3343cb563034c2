/**
 * `Services`: the app's long-lived dependencies — the store, the configuration, the
 * secret, the clock, the language model — created once at start-up (tests create their
 * own) and handed to every request as `ctx.state.services`. Its own module, so the
 * modules `AppState` names (lib/state.ts) can take services without importing the state.
 *
 * @module
 */
import type { Config } from "./config.ts";
import type { LlmClient } from "./llm/types.ts";
import type { Embedder } from "./search/embeddings.ts";

/** Long-lived dependencies, created once at start-up (tests create their own). */
export interface Services {
  kv: Deno.Kv;
  config: Config;
  /** HMAC / encryption key material (≥32 characters). */
  secret: string;
  /** The clock, replaceable in tests. */
  now: () => number;
  /** Agent API requests per key per minute (default 60; benchmarks raise it). */
  agentRateLimit?: number;
  /**
   * How long the feeds and a question page's thread reuse a read, in ms (default 1000; 0
   * turns the cache off). Writes through this process drop the cache at once.
   */
  feedCacheMs?: number;
  /**
   * The language model (lib/llm): the configured endpoint, the in-app stand-in in local
   * mode, or absent when neither is available (AI features then answer their 500).
   */
  llm?: LlmClient;
  /**
   * The embeddings model of semantic search (lib/search/embeddings.ts), chosen like `llm`:
   * `LLM_EMBEDDING_MODEL` at the configured endpoint, the stand-in in local mode, or absent
   * (search is then lexical only).
   */
  embedder?: Embedder;
  /** The AI avatar job's period in ms (default 30 s, docs/interface.md#ai-avatar); tests shorten it. */
  avatarIntervalMs?: number;
  /** How often the `search` job runs (lib/search/job.ts; tests shorten it). */
  searchJobEveryMs?: number;
  /** Uniform random numbers in [0, 1) (agent participation's `auto` coin); tests fix it. */
  random?: () => number;
}

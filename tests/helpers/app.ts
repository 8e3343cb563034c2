/**
 * Test harness: the real app over real KV (`:memory:` or a temp file), driven through
 * `app.request` or a real loopback port.
 */
import { createApp } from "@/lib/app.ts";
import { parseConfig } from "@/lib/config.ts";
import { readBuildInfo } from "@/lib/fresh/assets.ts";
import { openKv } from "@/lib/kv/open.ts";
import { jobRunner } from "@/lib/jobs/runner.ts";
import { llmFromConfig } from "@/lib/llm/from_config.ts";
import type { LlmClient } from "@/lib/llm/types.ts";
import { type Embedder, embedderFromConfig } from "@/lib/search/embeddings.ts";
import { resolveAppSecret } from "@/lib/auth/secret.ts";
import { createSession, sessionCookieName } from "@/lib/auth/sessions.ts";
import type { Services } from "@/lib/services.ts";
import { createUser, type User } from "@/lib/auth/users.ts";
import manifest from "@/manifest.gen.ts";

export const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

/** The stores of the test apps open in this process. */
const open = new Set<Deno.Kv>();

/**
 * Wait until no background job (of `kind`, or any) runs on any open test app's store,
 * or `ms` passed.
 *
 * @example
 * ```ts
 * await waitForJobs(10_000, "debate");
 * ```
 */
export async function waitForJobs(ms = 10_000, kind?: string): Promise<void> {
  await Promise.all([...open].map((kv) => jobRunner(kv).waitIdle(ms, kind)));
}

/** A running test app. */
export interface TestApp {
  app: ReturnType<typeof createApp>;
  kv: Deno.Kv;
  services: Services;
  /** Request a path (relative) through the app, like a browser on the app's origin. */
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Options of {@link createTestApp}. */
export interface TestAppOptions {
  env?: Record<string, string>;
  kvPath?: string;
  now?: () => number;
  /** Write request log lines to `logSink` (default false: tests stay quiet). */
  logRequests?: boolean;
  /**
   * The language model. Default: from the environment as in production — set
   * `LLM_API_KEY` and `LLM_BASE_URL` in `env` to point it at a fake server on loopback;
   * in local mode without a key it is the in-app stand-in. `null` means no model.
   */
  llm?: LlmClient | null;
  /** Deadline per model call when the client comes from the environment (ms). */
  llmTimeoutMs?: number;
  /**
   * The embeddings model. Default: from the environment as in production (the fake
   * server's `/v1/embeddings` with `LLM_API_KEY` set, the stand-in in local mode), none
   * when `llm` is `null`. `null` means none.
   */
  embedder?: Embedder | null;
}

/**
 * Start the app over a fresh in-memory KV (or `kvPath`).
 *
 * @example
 * ```ts
 * const t = await createTestApp();
 * const res = await t.request("/healthz");
 * await t.close();
 * ```
 */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  // The AI expert panel is off unless a test sets EXPERT_PANEL_PER_DAY, so every other
  // test's threads hold exactly what it wrote.
  // New accounts' daily limits are off unless a test sets them: every test user is a new
  // account (created now), and other tests choose their own volumes.
  const config = parseConfig({
    KV_PATH: opts.kvPath ?? ":memory:",
    EXPERT_PANEL_PER_DAY: "0",
    LIMIT_NEW_ACCOUNT_QUESTIONS_PER_DAY: "0",
    LIMIT_NEW_ACCOUNT_MESSAGES_PER_DAY: "0",
    ...opts.env,
  });
  const kv = await openKv(config.kvPath);
  open.add(kv);
  const secret = await resolveAppSecret(kv, config);
  // The in-app stand-in model is reached through the app built below.
  const self: { app?: ReturnType<typeof createApp> } = {};
  const llm = opts.llm === undefined
    ? llmFromConfig(config, { appFetch: () => self.app!.fetch, timeoutMs: opts.llmTimeoutMs })
    : opts.llm ?? undefined;
  const embedder = opts.embedder !== undefined
    ? opts.embedder ?? undefined
    : opts.llm === null
    ? undefined
    : embedderFromConfig(config, { appFetch: () => self.app!.fetch });
  const services: Services = { kv, config, secret, now: opts.now ?? Date.now, llm, embedder };
  const build = await readBuildInfo(`${ROOT}/.build`);
  const app = createApp(services, {
    manifest,
    build,
    buildDir: `${ROOT}/.build`,
    logRequests: opts.logRequests ?? false,
  });
  self.app = app;
  return {
    app,
    kv,
    services,
    request: async (path, init) =>
      await app.request(new URL(path, config.appOrigin).toString(), init),
    close: async () => {
      // Debates and panels run on after their client leaves; let them finish writing first.
      await jobRunner(kv).waitIdle(10_000);
      await jobRunner(kv).shutdown(0);
      open.delete(kv);
      kv.close();
    },
  };
}

/**
 * Create a user with a live session; returns the user and the Cookie header value.
 *
 * @example
 * ```ts
 * const { cookie } = await signInAs(t, "Ada");
 * await t.request("/api/auth/session", { headers: { cookie } });
 * ```
 */
export async function signInAs(
  t: TestApp,
  name: string,
  provider: User["provider"] = "provider_a",
): Promise<{ user: User; cookie: string }> {
  const user = await createUser(t.kv, { provider, name, image: null, bio: "", email: null });
  const { token } = await createSession(t.kv, user.id, provider, t.services.now());
  return { user, cookie: `${sessionCookieName(t.services.config.appOrigin)}=${token}` };
}

/** Headers of a same-origin JSON write from a signed-in browser. */
export function jsonWrite(t: TestApp, cookie: string): HeadersInit {
  return { cookie, origin: t.services.config.appOrigin, "content-type": "application/json" };
}

/**
 * Serve a handler on a random loopback port.
 *
 * @example
 * ```ts
 * const srv = serveOnLoopback(t.app.fetch);
 * await fetch(`${srv.url}/healthz`);
 * await srv.close();
 * ```
 */
export function serveOnLoopback(
  handler: Deno.ServeHandler,
): { url: string; port: number; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const port = (server.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      await server.shutdown();
    },
  };
}

/**
 * Serve a test app on a random loopback port and tell it that port, as main.ts listens on
 * `PORT`: in local mode `/mcp` answers the loopback names on the configured port only
 * (lib/agent/mcp_guard.ts).
 *
 * @example
 * ```ts
 * const t = await createTestApp();
 * const srv = serveAppOnLoopback(t);
 * await fetch(`${srv.url}/mcp`);
 * await srv.close();
 * ```
 */
export function serveAppOnLoopback(
  t: TestApp,
): { url: string; port: number; close(): Promise<void> } {
  const srv = serveOnLoopback(t.app.fetch);
  t.services.config.port = srv.port;
  return srv;
}

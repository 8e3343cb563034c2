/**
 * The one line `main.ts` prints once it listens: where, in which mode, with which model —
 * and, in local mode, who can reach it, since anyone who can open a local-mode page can
 * sign in as any local account, the Moderator included.
 *
 * @module
 */
import type { Config } from "./config.ts";

/** What the start line says about the language model. */
export interface ModelNote {
  standIn?: boolean;
  model?: string;
}

/** True for an address only this computer can reach. */
export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "::1" || /^127\./.test(hostname);
}

/**
 * The start line.
 *
 * @example
 * ```ts
 * import { parseConfig } from "@/lib/config.ts";
 * const config = parseConfig({ KV_PATH: ":memory:" });
 * startLine(config, { hostname: "127.0.0.1", port: 8000 }, { standIn: true });
 * // "Parley listening on http://127.0.0.1:8000 — local mode (local sign-in), only this
 * //  computer can reach it (set HOSTNAME=0.0.0.0 to open it to your network); …"
 * ```
 */
export function startLine(
  config: Pick<Config, "localMode" | "hostnameSet" | "appOrigin">,
  addr: { hostname: string; port: number },
  llm: ModelNote | null | undefined,
): string {
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  let mode = config.localMode ? "local mode (local sign-in)" : "production";
  if (config.localMode) {
    mode += isLoopback(addr.hostname)
      ? ", only this computer can reach it (set HOSTNAME=0.0.0.0 to open it to your network)"
      : ", open to your network because HOSTNAME is set: anyone who reaches it can sign in as any local account, the Moderator too";
  }
  const model = llm
    ? (llm.standIn ? "offline stand-in model" : `model ${llm.model}`)
    : "no language model (LLM_API_KEY unset)";
  return `Parley listening on http://${host}:${addr.port} — ${mode}; ${model}; origin ${config.appOrigin}`;
}

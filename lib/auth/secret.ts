/**
 * The application secret (HMAC and encryption key). Configured outside local mode; in
 * local mode generated once and kept in KV so sessions survive restarts.
 *
 * @module
 */
import type { Config } from "../config.ts";
import { keys } from "../kv/keys.ts";
import { commit } from "../kv/atomic.ts";
import { randomToken } from "../ids.ts";

/**
 * The configured secret, or (local mode) the one stored in KV, created on first use.
 * Two instances starting together agree: the create is a check-for-absent commit.
 *
 * @example
 * ```ts
 * import type { Config } from "@/lib/config.ts";
 * declare const config: Config;
 * declare const kv: Deno.Kv;
 * const secret = await resolveAppSecret(kv, config);
 * ```
 */
export async function resolveAppSecret(kv: Deno.Kv, config: Config): Promise<string> {
  if (config.appSecret) return config.appSecret;
  if (!config.localMode) throw new Error("APP_SECRET is required outside local mode");
  const existing = await kv.get<string>(keys.appSecret());
  if (existing.value) return existing.value;
  const fresh = randomToken(48);
  await commit(
    kv,
    (op) => op.check({ key: keys.appSecret(), versionstamp: null }).set(keys.appSecret(), fresh),
  );
  const stored = await kv.get<string>(keys.appSecret());
  return stored.value!;
}

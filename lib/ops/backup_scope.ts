/**
 * What a backup copies and how a restore re-creates it: the keys that belong to the store
 * rather than to its data (never copied), and the expiry a restored record gets back.
 *
 * Expiry: KV cannot report a key's `expireIn`, so a backup cannot carry it. The records
 * that are written with `expireIn` *and* carry `expiresAt` (docs/decisions.md#storage; the rows of
 * lib/kv/keys.ts that say "`expireIn` + `expiresAt`") get `expireIn = expiresAt − now` back
 * on restore, and one already past its `expiresAt` is not written (every reader treats it
 * as absent already). Only those prefixes: an identity also has an `expiresAt` (its
 * provider token's), but the identity itself never expires. The few keys written with
 * `expireIn` and no `expiresAt` (`ratelimit_log`, `panel_day`, `notification_daily`) are
 * restored without an expiry: small, and their readers do not depend on it.
 *
 * @module
 */
import { keys } from "../kv/keys.ts";
import { createdAtOf, NOTIFICATION_TTL_MS } from "../notifications/stored.ts";

/**
 * `["meta", "denoVersion"]`: the newest Deno that wrote the store (docs/decisions.md#storage). It
 * describes the store the process writes to, not the data: a backup taken on Deno 2.9.6
 * must restore cleanly under 2.5.0, so it is never copied either way.
 */
const DENO_VERSION_KEY: Deno.KvKey = ["meta", "denoVersion"];

const SKIPPED_KEYS = [DENO_VERSION_KEY, keys.restoreProgress()].map((k) => JSON.stringify(k));

/**
 * True for the keys a backup leaves out and a restore never writes from a file: the
 * store's Deno version record and an unfinished restore's progress.
 *
 * @example
 * ```ts
 * isStoreKey(["meta", "denoVersion"]); // true
 * isStoreKey(["meta", "app_secret"]); // false
 * ```
 */
export function isStoreKey(key: Deno.KvKey): boolean {
  return key.length === 2 && key[0] === "meta" && SKIPPED_KEYS.includes(JSON.stringify(key));
}

/** First key parts of the records written with `expireIn` that carry `expiresAt`. */
const EXPIRING_PREFIXES = new Set([
  "sessions",
  "auth_payloads",
  "local_oauth_codes",
  "local_oauth_tokens",
  "participation_drafts",
  "idempotency",
  "query_vector",
  "oauth_codes",
  "oauth_grants",
  "oauth_grants_by_user",
  "oauth_access_tokens",
  "oauth_refresh_tokens",
]);

/**
 * The `expireIn` (ms) a restored record gets: `undefined` for a record that does not
 * expire, `0` for one already past its `expiresAt` (not written), else the time left.
 *
 * @example
 * ```ts
 * restoredExpireIn(["sessions", "s1"], { expiresAt: 5_000 }, 1_000); // 4000
 * restoredExpireIn(["identities", "a", "1"], { expiresAt: 5_000 }, 1_000); // undefined
 * ```
 *
 * A notification (lib/notifications/stored.ts) keeps no `expiresAt`: its id says when it was
 * created, and it lives {@link NOTIFICATION_TTL_MS} from then.
 */
export function restoredExpireIn(key: Deno.KvKey, value: unknown, now: number): number | undefined {
  if (key[0] === "notifications" && key.length === 3 && typeof key[2] === "string") {
    const created = createdAtOf(key[2]);
    if (!Number.isFinite(created)) return undefined;
    return Math.max(0, Math.ceil(created + NOTIFICATION_TTL_MS - now));
  }
  if (typeof key[0] !== "string" || !EXPIRING_PREFIXES.has(key[0])) return undefined;
  const at = value && typeof value === "object"
    ? (value as { expiresAt?: unknown }).expiresAt
    : null;
  if (typeof at !== "number" || !Number.isFinite(at)) return undefined;
  return Math.max(0, Math.ceil(at - now));
}

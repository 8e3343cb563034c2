/**
 * Agent API keys (docs/interface.md#api-keys): `agent_` + 32 random bytes (base64url), shown once; only
 * the key's SHA-256 and a display prefix are kept; at most {@link MAX_AGENT_KEYS} per user;
 * revocable; each with its scopes (`read`, `write`: lib/agent/scopes.ts), chosen when it is
 * made — a key made before scopes existed has both. A request presents it as
 * `Authorization: Bearer agent_<KEY>`.
 *
 * @module
 */
import { LruCache, perStore } from "../cache.ts";
import { randomToken, sha256Hex } from "../ids.ts";
import { commit, updateAtomically } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { KEY_NAME_MAX, MAX_AGENT_KEYS } from "../input_limits.ts";
import { normalizeScopes, type Scope, SCOPES } from "./scopes.ts";

/** How often `lastUsedAt` is refreshed at most (saves a write per request). */
const TOUCH_EVERY_MS = 60_000;
/** Shape of a presented key: the prefix and 43 base64url characters. */
const KEY_SHAPE = /^agent_[A-Za-z0-9_-]{43}$/;

/** A key as stored (by hash, and in the owner's list). */
export interface AgentKeyRecord {
  id: string;
  userId: string;
  name: string;
  /** What the owner sees to recognise the key: `agent_AbCdEf…`. */
  prefix: string;
  hash: string;
  createdAt: number;
  lastUsedAt: number | null;
  /** What the key may do; absent on keys made before scopes, which may do everything. */
  scopes?: Scope[];
}

/** What the key panel lists (never the hash, never the key). */
export interface AgentKeyInfo {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number | null;
}

/** A new key: the key itself (shown once) and its listing. */
export interface CreatedAgentKey {
  key: string;
  info: AgentKeyInfo;
}

function info(r: AgentKeyRecord): AgentKeyInfo {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: normalizeScopes(r.scopes),
    createdAt: r.createdAt,
    lastUsedAt: r.lastUsedAt,
  };
}

/** A created key (shown once), or `limit` when the user holds {@link MAX_AGENT_KEYS} already. */
export type CreateAgentKeyResult =
  | { ok: true; created: CreatedAgentKey }
  | { ok: false; reason: "limit" };

/** A revoked key, or `not_found` when the user has no such key. */
export type RevokeAgentKeyResult = { ok: true } | { ok: false; reason: "not_found" };

/**
 * Create a key for a user, with `scopes` (every scope when left out). Returns the key
 * itself — the only time it exists outside the caller's hands — or `{ error: "limit" }`
 * when the user already has the maximum.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare function show(key: string): void;
 * declare const userId: string;
 * const r = await createAgentKey(kv, userId, "laptop agent", Date.now(), ["read"]);
 * if (r.ok) show(r.created.key);
 * ```
 */
export async function createAgentKey(
  kv: Deno.Kv,
  userId: string,
  name: string,
  now = Date.now(),
  scopes: readonly Scope[] = SCOPES,
): Promise<CreateAgentKeyResult> {
  const key = `agent_${randomToken(32)}`;
  const record: AgentKeyRecord = {
    id: `key_${randomToken(9)}`,
    userId,
    name: name.trim().slice(0, KEY_NAME_MAX) || "Agent key",
    prefix: `${key.slice(0, 12)}…`,
    hash: await sha256Hex(key),
    createdAt: now,
    lastUsedAt: null,
    scopes: normalizeScopes(scopes),
  };
  // The count key is checked, so two racing creations cannot both take the last slot.
  return await updateAtomically<CreateAgentKeyResult>(async () => {
    const count = await kv.get<number>(keys.agentKeyCount(userId));
    const n = count.value ?? 0;
    if (n >= MAX_AGENT_KEYS) return { op: null, result: { ok: false, reason: "limit" } };
    const op = kv.atomic().check(count)
      .check({ key: keys.agentKey(record.hash), versionstamp: null })
      .set(keys.agentKeyCount(userId), n + 1)
      .set(keys.agentKey(record.hash), record)
      .set(keys.agentKeyByUser(userId, record.id), record);
    return { op, result: { ok: true, created: { key, info: info(record) } } };
  });
}

/**
 * A user's keys, oldest first, with when each was last used.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * const list = await listAgentKeys(kv, userId);
 * ```
 */
export async function listAgentKeys(kv: Deno.Kv, userId: string): Promise<AgentKeyInfo[]> {
  const rows: Deno.KvEntry<AgentKeyRecord>[] = [];
  for await (const e of kv.list<AgentKeyRecord>({ prefix: keys.agentKeysByUserPrefix(userId) })) {
    rows.push(e);
  }
  // Oldest first; two keys made in the same millisecond in the order they were committed
  // (a row's versionstamp grows with each commit), not by their random ids.
  const records = rows
    .sort((a, b) =>
      a.value.createdAt - b.value.createdAt ||
      (a.versionstamp < b.versionstamp ? -1 : a.versionstamp > b.versionstamp ? 1 : 0)
    )
    .map((e) => e.value);
  // lastUsedAt is refreshed on the by-hash record only (one write per use).
  const live = records.length
    ? await kv.getMany<AgentKeyRecord[]>(records.map((r) => keys.agentKey(r.hash)))
    : [];
  return records
    .map((r, i) => info({ ...r, lastUsedAt: live[i]?.value?.lastUsedAt ?? r.lastUsedAt }));
}

/**
 * Revoke one of the user's keys; false when the user has no such key.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * await revokeAgentKey(kv, userId, "key_abc");
 * ```
 */
export async function revokeAgentKey(
  kv: Deno.Kv,
  userId: string,
  keyId: string,
): Promise<RevokeAgentKeyResult> {
  if (!keyId || keyId.length > 100) return { ok: false, reason: "not_found" };
  let revokedHash: string | null = null;
  const result = await updateAtomically<RevokeAgentKeyResult>(async () => {
    const [rec, count] = await kv.getMany<[AgentKeyRecord, number]>([
      keys.agentKeyByUser(userId, keyId),
      keys.agentKeyCount(userId),
    ]);
    if (!rec.value) return { op: null, result: { ok: false, reason: "not_found" } };
    const op = kv.atomic().check(rec).check(count)
      .delete(keys.agentKeyByUser(userId, keyId))
      .delete(keys.agentKey(rec.value.hash))
      .set(keys.agentKeyCount(userId), Math.max(0, (count.value ?? 1) - 1));
    revokedHash = rec.value.hash;
    return { op, result: { ok: true } };
  });
  // This process stops accepting the key at once: its cached record goes, and a lookup
  // that read the record before this commit does not cache it (the generation moved).
  if (result.ok && revokedHash) {
    const local = recentKeys(kv);
    local.records.delete(revokedHash);
    local.revocations++;
  }
  return result;
}

/**
 * Forget these key records in this process at once (a deleted account's keys): a lookup
 * that read one before the caller's commit does not cache it either.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * forgetAgentKeys(kv, ["3f2a…"]);
 * ```
 */
export function forgetAgentKeys(kv: Deno.Kv, hashes: readonly string[]): void {
  const local = recentKeys(kv);
  for (const h of hashes) local.records.delete(h);
  local.revocations++;
}

/**
 * The key in an `Authorization: Bearer agent_…` header, or null when the header is
 * missing or the token does not have a key's shape.
 */
export function bearerKey(header: string | null): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return m && KEY_SHAPE.test(m[1]) ? m[1] : null;
}

/**
 * How long this process reuses a key record it looked up, in ms (real time). Every agent
 * request authenticates, and the record's `kv.get` was a sixth of an agent list request's
 * CPU. A revocation through this process drops the record at once
 * ({@link revokeAgentKey}); one through another instance is honoured here within this
 * time. Only live records are kept (an unknown key is looked up every time).
 */
export const KEY_CACHE_MS = 1000;
/** Most key records kept per store (the least recently used is dropped first). */
const MAX_CACHED_KEYS = 10_000;

/**
 * Per store: the key records looked up lately (the least recently used dropped first), and
 * how many revocations went through this process (a lookup older than one is not cached).
 */
const recentKeys = perStore(() => ({
  records: new LruCache<string, AgentKeyRecord>({
    maxEntries: MAX_CACHED_KEYS,
    ttlMs: KEY_CACHE_MS,
  }),
  revocations: 0,
}));

/**
 * The live key record for a presented key, or null. Refreshes `lastUsedAt` at most once
 * a minute, under a check so a key revoked meanwhile is never written back. A record
 * looked up within {@link KEY_CACHE_MS} is reused without a read (unless its
 * `lastUsedAt` is due a refresh).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const req: Request;
 * const rec = await authenticateAgentKey(kv, req.headers.get("authorization"));
 * ```
 */
export async function authenticateAgentKey(
  kv: Deno.Kv,
  authorization: string | null,
  now = Date.now(),
): Promise<AgentKeyRecord | null> {
  const key = bearerKey(authorization);
  if (!key) return null;
  const hash = await sha256Hex(key);
  const local = recentKeys(kv);
  const due = (r: AgentKeyRecord) => r.lastUsedAt === null || now - r.lastUsedAt >= TOUCH_EVERY_MS;
  const hit = local.records.get(hash);
  if (hit && !due(hit)) return hit;
  const revocations = local.revocations;
  const entry = await kv.get<AgentKeyRecord>(keys.agentKey(hash));
  const rec = entry.value;
  if (!rec) {
    local.records.delete(hash);
    return null;
  }
  let kept = rec;
  if (due(rec)) {
    const touched = { ...rec, lastUsedAt: now };
    const r = await commit(kv, (op) => op.check(entry).set(keys.agentKey(rec.hash), touched));
    if (r.ok) kept = touched;
  }
  local.records.delete(hash);
  if (local.revocations !== revocations) return rec;
  local.records.set(hash, kept);
  return rec;
}

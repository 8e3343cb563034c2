/**
 * The AI avatar job's lease: one KV record (`["avatar_job"]`) that says who runs the
 * current tick, until when, and when the last tick started. A tick is taken with an
 * atomic check on that record, so among any number of instances sharing the store only
 * one runs a tick at a time, and ticks start at least the interval apart.
 *
 * @module
 */
import { keys } from "../kv/keys.ts";
import { withLockRetry } from "../kv/retry.ts";

/** SPEC.md "AI avatar settings": the check interval. */
export const AVATAR_INTERVAL_MS = 30_000;

/**
 * Timers on different instances drift by a few milliseconds; a tick that arrives this
 * much early still counts as on time, so the cadence does not halve to one per minute.
 */
export const INTERVAL_SLACK_MS = 1_000;

/**
 * How long a lease lasts. Longer than a tick's work budget plus one model call, so a
 * lease only expires when its holder died; the per-question markers keep even that case
 * free of duplicates.
 */
export const LEASE_MS = 120_000;

/** The lease record. */
export interface AvatarJobState {
  /** The instance running (or that last ran) a tick. */
  owner: string;
  /** The lease is held until this time (Unix ms); 0 once released. */
  leaseUntil: number;
  /** When the last tick started (Unix ms). */
  lastTickAt: number;
  /** The roster user the last tick ended with; the next tick starts after them. */
  cursor: string | null;
}

/** A lease taken for one tick. */
export interface HeldLease {
  state: AvatarJobState;
  versionstamp: string;
}

/** Why no tick runs now. */
export type LeaseRefusal = "too_soon" | "busy";

/**
 * Take the lease for a tick starting at `now`, or say why not.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const owner: string;
 * declare const now: number;
 * const lease = await acquireLease(kv, owner, now);
 * if (!("refused" in lease)) {
 *   // … answer questions while the lease is held …
 *   await releaseLease(kv, lease, null);
 * }
 * ```
 */
export async function acquireLease(
  kv: Deno.Kv,
  owner: string,
  now: number,
): Promise<HeldLease | { refused: LeaseRefusal }> {
  const entry = await kv.get<AvatarJobState>(keys.avatarJob());
  const cur = entry.value;
  if (cur && now - cur.lastTickAt < AVATAR_INTERVAL_MS - INTERVAL_SLACK_MS) {
    return { refused: "too_soon" };
  }
  if (cur && cur.leaseUntil > now && cur.owner !== owner) return { refused: "busy" };
  const state: AvatarJobState = {
    owner,
    leaseUntil: now + LEASE_MS,
    lastTickAt: now,
    cursor: cur?.cursor ?? null,
  };
  const res = await withLockRetry(() =>
    kv.atomic().check(entry).set(keys.avatarJob(), state).commit()
  );
  // Another instance took it between our read and our write.
  if (!res.ok) return { refused: "busy" };
  return { state, versionstamp: res.versionstamp };
}

/**
 * Give the lease back after a tick, remembering where the roster walk stopped. A lease
 * that expired and was taken over by another instance is left alone.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const lastUserId: string | null;
 * declare const lease: Parameters<typeof releaseLease>[1];
 * await releaseLease(kv, lease, lastUserId);
 * ```
 */
export async function releaseLease(
  kv: Deno.Kv,
  lease: HeldLease,
  cursor: string | null,
): Promise<void> {
  const state: AvatarJobState = { ...lease.state, leaseUntil: 0, cursor };
  await withLockRetry(() =>
    kv.atomic()
      .check({ key: keys.avatarJob(), versionstamp: lease.versionstamp })
      .set(keys.avatarJob(), state)
      .commit()
  );
}

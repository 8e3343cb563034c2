/**
 * Idempotent creates (`Idempotency-Key`, docs/interface.md#idempotency): a repeat of a create with the same
 * key by the same caller within 24 h answers the first response again and creates nothing.
 *
 * The record `["idempotency", caller, key]` goes through three states:
 * 1. `pending` — claimed before the create, with a check that no record exists, so of two
 *    concurrent requests with one key exactly one proceeds. The other answers 409 "still in
 *    progress" at once (no waiting: the client retries and then gets the first response).
 *    A pending claim is a lease of {@link PENDING_LEASE_MS}: if its process dies before the
 *    create commits, the key frees itself.
 * 2. `created` — written in the SAME atomic op as the created record (the caller passes
 *    {@link IdempotencyClaim.attach} to the domain write), naming the created resource.
 *    A crash after the commit can therefore never lead to a duplicate: the retry finds the
 *    record and rebuilds the response from the resource id.
 * 3. `done` — the response snapshot (status and body) stored after the commit, so the
 *    repeat answers byte for byte what the first did.
 *
 * A create that fails (4xx) releases its claim: the same key may be used again.
 *
 * Each state keeps the request's fingerprint when the caller gives one (a digest of its
 * method, path and body): a repeat with the same key but another request is told so
 * (`mismatch`) instead of being answered the first one's response as if it were its own.
 *
 * @module
 */
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** How long a claim without a committed create holds the key. */
export const PENDING_LEASE_MS = 60_000;
/** Largest response body kept as a snapshot (larger ones are rebuilt from the id). */
const MAX_SNAPSHOT_CHARS = 48 * 1024;

/** The stored record. */
export interface IdempotencyRecord {
  state: "pending" | "created" | "done";
  /** The created resource (set from `created` on). */
  resourceId?: string;
  /** The first response (`done`). */
  response?: { status: number; body: string; contentType: string };
  /** A digest of the request that claimed the key (none on records from before, or forms). */
  fingerprint?: string;
  createdAt: number;
  expiresAt: number;
}

/** True for a valid key: 1–255 visible ASCII characters. */
export function isIdempotencyKey(key: string): boolean {
  return /^[\x21-\x7e]{1,255}$/.test(key);
}

/** A successful claim: attach it to the create's atomic op, then store the response. */
export interface IdempotencyClaim {
  /** Add the `created` record to the create's atomic op (mutation only, no check). */
  attach(op: Deno.AtomicOperation, resourceId: string): void;
}

/** What {@link claimIdempotencyKey} found. */
export type ClaimResult =
  | { state: "claimed"; claim: IdempotencyClaim }
  | { state: "in_progress" }
  | { state: "mismatch" }
  | { state: "created"; resourceId: string }
  | { state: "done"; response: NonNullable<IdempotencyRecord["response"]> };

/**
 * Claim `key` for `caller`, or report what an earlier request with it left.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await claimIdempotencyKey(kv, "user:u1", "3f0c…", Date.now());
 * if (r.state === "done") console.log(r.response.status);
 * ```
 */
export async function claimIdempotencyKey(
  kv: Deno.Kv,
  caller: string,
  key: string,
  now: number,
  fingerprint?: string,
): Promise<ClaimResult> {
  const k = keys.idempotency(caller, key);
  for (let i = 0; i < 5; i++) {
    const cur = await kv.get<IdempotencyRecord>(k);
    const rec = cur.value;
    const live = rec && rec.expiresAt > now;
    if (live && fingerprint && rec.fingerprint && rec.fingerprint !== fingerprint) {
      return { state: "mismatch" };
    }
    if (live && rec.state === "done" && rec.response) {
      return { state: "done", response: rec.response };
    }
    if (live && rec.resourceId) return { state: "created", resourceId: rec.resourceId };
    if (live && rec.state === "pending") return { state: "in_progress" };
    const pending: IdempotencyRecord = {
      state: "pending",
      fingerprint,
      createdAt: now,
      expiresAt: now + PENDING_LEASE_MS,
    };
    const res = await commit(
      kv,
      (op) => op.check(cur).set(k, pending, { expireIn: PENDING_LEASE_MS + 60_000 }),
    );
    if (!res.ok) continue; // another request got there first: look again
    return {
      state: "claimed",
      claim: {
        attach: (op, resourceId) => {
          const created: IdempotencyRecord = {
            state: "created",
            resourceId,
            fingerprint,
            createdAt: now,
            expiresAt: now + IDEMPOTENCY_TTL_MS,
          };
          op.set(k, created, { expireIn: IDEMPOTENCY_TTL_MS });
        },
      },
    };
  }
  return { state: "in_progress" };
}

/**
 * Keep the first response of a committed create (after the commit; a failure here only
 * means a repeat rebuilds the response from the resource id).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await storeIdempotentResponse(kv, "user:u1", "k1", "q-1", { status: 201, body: "{}", contentType: "application/json" }, Date.now(), "9f86d0…");
 * ```
 */
export async function storeIdempotentResponse(
  kv: Deno.Kv,
  caller: string,
  key: string,
  resourceId: string,
  response: NonNullable<IdempotencyRecord["response"]>,
  now: number,
  fingerprint?: string,
): Promise<void> {
  if (response.body.length > MAX_SNAPSHOT_CHARS) return;
  const rec: IdempotencyRecord = {
    state: "done",
    resourceId,
    response,
    fingerprint,
    createdAt: now,
    expiresAt: now + IDEMPOTENCY_TTL_MS,
  };
  await commit(kv, (op) =>
    op.set(keys.idempotency(caller, key), rec, {
      expireIn: IDEMPOTENCY_TTL_MS,
    }));
}

/**
 * Drop a pending claim whose create failed, so the key can be used again. A record that
 * already names a resource is kept.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await releaseIdempotencyKey(kv, "user:u1", "k1");
 * ```
 */
export async function releaseIdempotencyKey(
  kv: Deno.Kv,
  caller: string,
  key: string,
): Promise<void> {
  const k = keys.idempotency(caller, key);
  const cur = await kv.get<IdempotencyRecord>(k);
  if (cur.value?.state !== "pending") return;
  await commit(kv, (op) => op.check(cur).delete(k));
}

/** What {@link createOnce} did. */
export type CreateOnceResult<R> =
  | { state: "created"; result: R }
  | { state: "replayed"; resourceId: string }
  | { state: "in_progress" };

/**
 * Run a create once per (caller, key) — for callers that answer by the resource id (a form
 * that redirects to it) rather than by a stored response. `create` gets the op hook to
 * pass to the domain write; a failed create (`ok: false`) releases the key.
 *
 * @example
 * ```ts
 * import { askQuestion } from "@/lib/community/questions/write.ts";
 * declare const kv: Deno.Kv;
 * const r = await createOnce(kv, "user:u1", "k1", Date.now(), (attach) =>
 *   askQuestion(kv, { userId: "u1", title: "Why KV?", createdBy: "user" }, {
 *     extra: (op, q) => attach(op, q.id),
 *   }));
 * ```
 */
export async function createOnce<R extends { ok: boolean }>(
  kv: Deno.Kv,
  caller: string,
  key: string,
  now: number,
  create: (attach: IdempotencyClaim["attach"]) => Promise<R>,
): Promise<CreateOnceResult<R>> {
  const found = await claimIdempotencyKey(kv, caller, key, now);
  if (found.state === "in_progress" || found.state === "mismatch") return { state: "in_progress" };
  if (found.state === "created") return { state: "replayed", resourceId: found.resourceId };
  if (found.state === "done") {
    return { state: "in_progress" }; // forms never store snapshots; not reached
  }
  try {
    const result = await create(found.claim.attach);
    if (!result.ok) await releaseIdempotencyKey(kv, caller, key);
    return { state: "created", result };
  } catch (err) {
    await releaseIdempotencyKey(kv, caller, key).catch(() => {});
    throw err;
  }
}

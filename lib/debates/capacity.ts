/**
 * Debate capacity across all instances (docs/interface.md#limits): at most `MAX_CONCURRENT_DEBATES`
 * debates generate at once, and each user may start `DEBATES_PER_USER_PER_DAY` a day.
 *
 * The ceiling is a lease table in one KV value, `["debate_leases"]` → `{leases: {id:
 * until}}`: taking a slot reads it, drops expired leases, and adds one under a `check`.
 * Debates start a few times a minute, but a crowd can start at once: a process puts the
 * table changes that arrive together into one commit (`leaseWrites`). A running debate
 * renews its lease every {@link HEARTBEAT_MS}; a lease not renewed for {@link LEASE_MS}
 * (its process crashed) no longer counts, so a crashed process's slot frees itself.
 * The daily quota is a sliding-window log (lib/limits/window.ts) per user.
 *
 * @module
 */
import { perStore } from "../cache.ts";
import { coalesce, coalescer } from "../coalesce.ts";
import { updateAtomically } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { hitRateLimit } from "../limits/window.ts";

/** How long a lease counts without a heartbeat. */
export const LEASE_MS = 90_000;
/** How often a running debate renews its lease. */
export const HEARTBEAT_MS = 20_000;
const DAY = 24 * 3_600_000;

/** The stored lease table. */
interface LeaseTable {
  leases: Record<string, number>;
}

/** A taken slot: renew it while the debate runs, release it when it ends. */
export interface DebateSlot {
  release(): Promise<void>;
}

/** The outcome of {@link acquireDebateSlot}. */
export type AcquireSlotResult =
  | { ok: true; slot: DebateSlot }
  | { ok: false; reason: "busy"; retryAfter: number; max: number }
  | { ok: false; reason: "daily_quota"; retryAfter: number; limit: number };

function live(table: LeaseTable | null, now: number): Record<string, number> {
  return Object.fromEntries(
    Object.entries(table?.leases ?? {}).filter(([, until]) => until > now),
  );
}

/** One change to the lease table: a new lease, a renewal, or (`until` null) a release. */
interface LeaseChange {
  id: string;
  until: number | null;
  now: number;
  /** A new lease, taken only while fewer than `max` are live; `retryAfter` says how it went. */
  take?: { max: number; retryAfter?: number };
}

/**
 * Each store's lease table changes, coalesced (lib/coalesce.ts): the changes that arrive
 * while one commit is in flight go out together in the next, each judged in turn on the
 * table that commit read. A crowd of starts in one process costs a few commits; alone,
 * each start's read-check-write of the one key lost its check to the others again and
 * again, and 200 at once ran out of retries (a 500 from `POST /api/debate`).
 */
const leaseWrites = perStore((kv) =>
  coalescer<LeaseChange>(async (_key, changes) => {
    await updateAtomically(async () => {
      const cur = await kv.get<LeaseTable>(keys.debateLeases());
      const leases = live(cur.value, Math.max(...changes.map((c) => c.now)));
      for (const c of changes) {
        if (c.take) {
          const untils = Object.values(leases);
          if (untils.length >= c.take.max) {
            // A debate usually ends well before its lease; suggest a short wait, at most
            // the time until the soonest lease would lapse.
            const soonest = Math.min(...untils);
            c.take.retryAfter = Math.max(1, Math.min(15, Math.ceil((soonest - c.now) / 1000)));
            continue;
          }
          c.take.retryAfter = 0;
          leases[c.id] = c.until!;
        } else if (c.until === null) delete leases[c.id];
        else if (c.id in leases) leases[c.id] = c.until; // expired meanwhile: not resurrected
      }
      return {
        op: kv.atomic().check(cur).set(keys.debateLeases(), { leases } satisfies LeaseTable),
        result: undefined,
      };
    });
  })
);

/** Apply `change` to `kv`'s lease table with the changes of the same moment. */
async function changeLeases(kv: Deno.Kv, change: LeaseChange): Promise<void> {
  await coalesce(leaseWrites(kv), "leases", change);
}

/**
 * Take a slot for a new debate of `userId`, or say why not and when to retry. Roundtables
 * take their slots from the same ceiling (they share the model) and count against their own
 * daily quota, named by `quota` (default `debates_daily`).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await acquireDebateSlot(kv, { userId: "u1", max: 50, perUserPerDay: 50, now: Date.now });
 * if (r.ok) await r.slot.release();
 * ```
 */
export async function acquireDebateSlot(
  kv: Deno.Kv,
  opts: {
    userId: string;
    max: number;
    perUserPerDay: number;
    now: () => number;
    quota?: string;
  },
): Promise<AcquireSlotResult> {
  const id = crypto.randomUUID();
  const t = opts.now();
  const take: { max: number; retryAfter?: number } = { max: opts.max };
  await changeLeases(kv, { id, until: t + LEASE_MS, now: t, take });
  const taken = take.retryAfter ?? 0;
  if (taken > 0) return { ok: false, reason: "busy", retryAfter: taken, max: opts.max };
  if (opts.perUserPerDay > 0) {
    const quota = await hitRateLimit(
      kv,
      opts.quota ?? "debates_daily",
      opts.userId,
      opts.perUserPerDay,
      DAY,
      t,
    );
    if (!quota.allowed) {
      await changeLeases(kv, { id, until: null, now: opts.now() });
      return {
        ok: false,
        reason: "daily_quota",
        retryAfter: quota.retryAfter,
        limit: opts.perUserPerDay,
      };
    }
  }
  const heartbeat = setInterval(() => {
    const n = opts.now();
    changeLeases(kv, { id, until: n + LEASE_MS, now: n }).catch((err) =>
      console.error("Debate lease heartbeat failed", err)
    );
  }, HEARTBEAT_MS);
  let released = false;
  return {
    ok: true,
    slot: {
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(heartbeat);
        await changeLeases(kv, { id, until: null, now: opts.now() });
      },
    },
  };
}

/** How many debates hold a live lease now (all instances). */
export async function runningDebatesEverywhere(kv: Deno.Kv, now: number): Promise<number> {
  return Object.keys(live((await kv.get<LeaseTable>(keys.debateLeases())).value, now)).length;
}

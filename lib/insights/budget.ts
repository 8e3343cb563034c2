/**
 * The site's daily budget of opinion maps and thread summaries (`INSIGHTS_PER_DAY`, shared
 * by all instances): one count per UTC day, `["insights_day", day]`, spent once per model
 * call. Its own count beside the AI panel's (`EXPERT_PANEL_PER_DAY`, lib/panel/budget.ts):
 * a busy day of maps never takes the panels of new questions, nor the other way round.
 * Spends are rare (one job per question, only when its thread grew), so each one is a
 * plain check-and-set.
 *
 * @module
 */
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";

const DAY_KEY_TTL_MS = 2 * 86_400_000;

/**
 * The UTC day of a time, `YYYY-MM-DD`.
 *
 * @example
 * ```ts
 * dayOf(0); // "1970-01-01"
 * ```
 */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The start of the next UTC day: when a spent budget is there again.
 *
 * @example
 * ```ts
 * nextDayStart(0); // 86_400_000
 * ```
 */
export function nextDayStart(ms: number): number {
  return (Math.floor(ms / 86_400_000) + 1) * 86_400_000;
}

/**
 * Spend one model call from today's budget; false when none is left (or `limit` is 0).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * if (!await spendInsightBudget(kv, Date.now(), 500)) console.log("no more maps today");
 * ```
 */
export async function spendInsightBudget(
  kv: Deno.Kv,
  now: number,
  limit: number,
): Promise<boolean> {
  const key = keys.insightsDay(dayOf(now));
  for (let attempt = 0; attempt < 20; attempt++) {
    const cur = await kv.get<number>(key);
    const used = cur.value ?? 0;
    if (used >= limit) return false;
    const res = await commit(
      kv,
      (op) => op.check(cur).set(key, used + 1, { expireIn: DAY_KEY_TTL_MS }),
    );
    if (res.ok) return true;
    await new Promise((r) => setTimeout(r, Math.random() * 20));
  }
  return false;
}

/**
 * How many were spent on the day of `now`.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const used = await insightsSpent(kv, Date.now());
 * ```
 */
export async function insightsSpent(kv: Deno.Kv, now: number): Promise<number> {
  return (await kv.get<number>(keys.insightsDay(dayOf(now)))).value ?? 0;
}

/**
 * The site's daily budget of opinion maps and thread summaries (`INSIGHTS_PER_DAY`, shared
 * by all instances): a daily budget of lib/limits/daily_budget.ts under
 * `["insights_day", day]`, spent once per model call. Its own count beside the AI panel's
 * (`EXPERT_PANEL_PER_DAY`, lib/panel/budget.ts): a busy day of maps never takes the panels
 * of new questions, nor the other way round.
 *
 * @module
 */
import { keys } from "../kv/keys.ts";
import { dailyBudget } from "../limits/daily_budget.ts";

const insightsBudget = dailyBudget(keys.insightsDay);

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
  return await insightsBudget.spend(kv, limit, now);
}

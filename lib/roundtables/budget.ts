/**
 * The site's daily budget of roundtables (`ROUNDTABLES_PER_DAY`): one count per UTC day,
 * `["ai_day", "roundtables", day]`, spent once per roundtable started
 * (lib/limits/daily_budget.ts).
 *
 * @module
 */
import { keys } from "../kv/keys.ts";
import { dailyBudget } from "../limits/daily_budget.ts";

const roundtableBudget = dailyBudget((day) => keys.aiDay("roundtables", day));

/**
 * Spend one roundtable from today's site budget; false when none is left.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * if (!await spendRoundtableBudget(kv, 100, Date.now())) console.log("none left today");
 * ```
 */
export function spendRoundtableBudget(kv: Deno.Kv, limit: number, now: number): Promise<boolean> {
  return roundtableBudget.spend(kv, limit, now);
}

/**
 * Whether today's site budget is spent already — checked before the host's own daily count
 * is taken, so a refusal for the site's sake costs the host nothing.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * if (await roundtableBudgetSpent(kv, 100, Date.now())) console.log("none left today");
 * ```
 */
export async function roundtableBudgetSpent(
  kv: Deno.Kv,
  limit: number,
  now: number,
): Promise<boolean> {
  return await roundtableBudget.spent(kv, now) >= limit;
}

/**
 * The panel's daily budget (`config.expertPanelPerDay`): one count per UTC day,
 * `["panel_day", day]`, spent once per new question whose panel runs — a site-wide daily
 * budget of lib/limits/daily_budget.ts (group-committed, exact across instances).
 *
 * @module
 */
import { keys } from "../kv/keys.ts";
import { dailyBudget } from "../limits/daily_budget.ts";
import { panelMetrics } from "./metrics.ts";
import type { PanelServices } from "./model.ts";

const panelBudget = dailyBudget(keys.panelDay, () => panelMetrics.commits++);

/**
 * Spend one panel from today's budget; false when none is left.
 *
 * @example
 * ```ts
 * declare const services: import("./model.ts").PanelServices;
 * if (!await spendPanelBudget(services)) console.log("no panel today");
 * ```
 */
export async function spendPanelBudget(services: PanelServices): Promise<boolean> {
  return await panelBudget.spend(services.kv, services.config.expertPanelPerDay, services.now());
}

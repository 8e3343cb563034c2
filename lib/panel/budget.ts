/**
 * The panel's daily budget (`config.expertPanelPerDay`): one count per UTC day,
 * `["panel_day", day]`, spent once per new question whose panel runs.
 *
 * Concurrent spends in this process share one check-and-set of the day's count
 * (lib/kv/group_commit.ts): a burst of new questions measured ~15 budget commits a panel
 * when each spend retried its own; now a burst costs about one commit per group. The count
 * is exact across instances: a group whose check fails (another instance spent meanwhile)
 * runs each spend alone through the same check-and-set loop.
 *
 * @module
 */
import { perStore } from "../cache.ts";
import { commit } from "../kv/atomic.ts";
import { type GroupCommitter, groupCommitter, submit } from "../kv/group_commit.ts";
import { keys } from "../kv/keys.ts";
import { panelMetrics } from "./metrics.ts";
import type { PanelServices } from "./model.ts";

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** One request for a panel from a day's budget. */
interface BudgetSpend {
  seq: number;
  day: string;
  limit: number;
}

const DAY_KEY_TTL_MS = 2 * 86_400_000;
const spenders = perStore(budgetSpender);
let spendSeq = 0;

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
  const { kv, config } = services;
  return await submit(spenders(kv), {
    seq: ++spendSeq,
    day: dayOf(services.now()),
    limit: config.expertPanelPerDay,
  });
}

function budgetSpender(kv: Deno.Kv): GroupCommitter<BudgetSpend, boolean> {
  return groupCommitter<BudgetSpend, boolean>({
    kv,
    maxItems: 64,
    keyOf: (s) => String(s.seq),
    build: async (op, spends) => {
      // Normally one day; a group that straddles midnight reads both.
      const days = [...new Set(spends.map((s) => s.day))];
      const counts = await kv.getMany<number[]>(days.map(keys.panelDay));
      const used = new Map(days.map((d, i) => [d, counts[i].value ?? 0]));
      const answers = spends.map((s) => {
        const n = used.get(s.day)!;
        if (n >= s.limit) return false;
        used.set(s.day, n + 1);
        return true;
      });
      days.forEach((d, i) => {
        op.check(counts[i]);
        if (used.get(d) !== (counts[i].value ?? 0)) {
          op.set(keys.panelDay(d), used.get(d)!, { expireIn: DAY_KEY_TTL_MS });
        }
      });
      panelMetrics.commits++;
      return answers;
    },
    single: async (s) => {
      const key = keys.panelDay(s.day);
      for (let attempt = 0; attempt < 50; attempt++) {
        const cur = await kv.get<number>(key);
        const used = cur.value ?? 0;
        if (used >= s.limit) return false;
        const res = await commit(
          kv,
          (op) => op.check(cur).set(key, used + 1, { expireIn: DAY_KEY_TTL_MS }),
        );
        panelMetrics.commits++;
        if (res.ok) return true;
        await new Promise((r) => setTimeout(r, Math.random() * 20));
      }
      return false;
    },
  });
}

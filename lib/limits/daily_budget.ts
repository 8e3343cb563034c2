/**
 * A site-wide daily budget of AI work: one count per UTC day under a key of the budget's
 * own, spent once per unit of work (an expert panel, a roundtable) and refused once the
 * day's limit is reached. Every instance counts the same (the count lives in KV).
 *
 * Concurrent spends in this process share one check-and-set of the day's count
 * (lib/kv/group_commit.ts): a burst costs about one commit per group instead of one retry
 * loop per spend. The count is exact across instances: a group whose check fails (another
 * instance spent meanwhile) runs each spend alone through the same check-and-set loop.
 *
 * @module
 */
import { perStore } from "../cache.ts";
import { commit } from "../kv/atomic.ts";
import { type GroupCommitter, groupCommitter, submit } from "../kv/group_commit.ts";

/** The UTC day of `ms`, `YYYY-MM-DD`. */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** One request for a unit from a day's budget. */
interface BudgetSpend {
  seq: number;
  day: string;
  limit: number;
}

/** A day's count outlives its day by a day, then expires. */
const DAY_KEY_TTL_MS = 2 * 86_400_000;
let spendSeq = 0;

/** A daily budget: spend one unit, or learn none is left today. */
export interface DailyBudget {
  /** Spend one unit from the day of `now`; false when `limit` are spent already. */
  spend(kv: Deno.Kv, limit: number, now: number): Promise<boolean>;
  /** How many are spent on the day of `now` (to refuse before taking anything else). */
  spent(kv: Deno.Kv, now: number): Promise<number>;
}

/**
 * A daily budget whose day counts live under `keyOf(day)`; `onCommit` hears every commit
 * it makes (for metrics).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const budget = dailyBudget((day) => ["ai_day", "example", day]);
 * if (!await budget.spend(kv, 100, Date.now())) console.log("none left today");
 * ```
 */
export function dailyBudget(
  keyOf: (day: string) => Deno.KvKey,
  onCommit: () => void = () => {},
): DailyBudget {
  const spenders = perStore((kv) => budgetSpender(kv, keyOf, onCommit));
  return {
    spend: (kv, limit, now) => submit(spenders(kv), { seq: ++spendSeq, day: dayOf(now), limit }),
    spent: async (kv, now) => (await kv.get<number>(keyOf(dayOf(now)))).value ?? 0,
  };
}

function budgetSpender(
  kv: Deno.Kv,
  keyOf: (day: string) => Deno.KvKey,
  onCommit: () => void,
): GroupCommitter<BudgetSpend, boolean> {
  return groupCommitter<BudgetSpend, boolean>({
    kv,
    maxItems: 64,
    keyOf: (s) => String(s.seq),
    build: async (op, spends) => {
      // Normally one day; a group that straddles midnight reads both.
      const days = [...new Set(spends.map((s) => s.day))];
      const counts = await kv.getMany<number[]>(days.map(keyOf));
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
          op.set(keyOf(d), used.get(d)!, { expireIn: DAY_KEY_TTL_MS });
        }
      });
      onCommit();
      return answers;
    },
    single: async (s) => {
      const key = keyOf(s.day);
      for (let attempt = 0; attempt < 50; attempt++) {
        const cur = await kv.get<number>(key);
        const used = cur.value ?? 0;
        if (used >= s.limit) return false;
        const res = await commit(
          kv,
          (op) => op.check(cur).set(key, used + 1, { expireIn: DAY_KEY_TTL_MS }),
        );
        onCommit();
        if (res.ok) return true;
        await new Promise((r) => setTimeout(r, Math.random() * 20));
      }
      return false;
    },
  });
}

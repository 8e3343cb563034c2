import { RelativeTime } from "./RelativeTime.tsx";
import type { RoundtableRecord } from "@/lib/roundtables/model.ts";

import { DEBATE_STATUS_TEXT } from "./debate_status.ts";

/**
 * One roundtable in a list: its topic linking to its page, its experts' names (between
 * `prefix` and `suffix`), its status and when it began.
 *
 * @example
 * ```tsx
 * import type { RoundtableRecord } from "@/lib/roundtables/model.ts";
 * declare const r: RoundtableRecord;
 * const item = <RoundtableItem r={r} now={Date.now()} testId="roundtable-item" />;
 * ```
 */
export function RoundtableItem(
  { r, now, testId, prefix = "", suffix = "" }: {
    r: RoundtableRecord;
    now: number;
    testId: string;
    prefix?: string;
    suffix?: string;
  },
) {
  return (
    <li class="card debate-history-item" data-testid={testId}>
      <h3 class="public-debate-title">
        <a href={`/roundtables/${encodeURIComponent(r.id)}`} dir="auto">{r.topic}</a>
      </h3>
      <div class="meta">
        <span>
          {prefix}
          {r.experts.map((e) => e.name).join(", ")}
          {suffix}
        </span>
        <span class={`debate-status debate-status-${r.status}`}>
          {DEBATE_STATUS_TEXT[r.status] ?? r.status}
        </span>
        <RelativeTime ms={r.createdAt} now={now} />
      </div>
    </li>
  );
}

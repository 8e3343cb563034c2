/**
 * The lists of points an AI report is made of — a debate judge's and a roundtable's
 * minutes alike: each point once, an empty list said in words, and the two columns of
 * where the speakers agreed and disagreed.
 *
 * @module
 */
import { distinctPoints } from "@/lib/text/distinct.ts";

/** A list of a model's points, each said once (lib/text/distinct.ts), or `empty` when none. */
export function ReportPoints({ items, empty }: { items: string[]; empty: string }) {
  const points = distinctPoints(items);
  return points.length > 0
    ? <ul>{points.map((p, i) => <li key={i}>{p}</li>)}</ul>
    : <p class="muted">{empty}</p>;
}

/** "Where they agreed" beside "Where they disagreed". */
export function AgreementColumns(
  { consensus, disagreements }: { consensus: string[]; disagreements: string[] },
) {
  return (
    <div class="synthesis-grid">
      <div>
        <h3>Where they agreed</h3>
        <ReportPoints items={consensus} empty="No common ground was noted." />
      </div>
      <div>
        <h3>Where they disagreed</h3>
        <ReportPoints items={disagreements} empty="No disagreements were noted." />
      </div>
    </div>
  );
}

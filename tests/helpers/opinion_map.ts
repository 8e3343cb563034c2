/**
 * A made-up opinion map for tests: `n` answers' nodes (ids `n1…`, messages `m1…`), their
 * stances cycling support, oppose, conditional, neutral, and every node but the first
 * supporting the first (a star), with the given camps.
 */
import type { OpinionMapValue } from "@/lib/schemas/insights.ts";

/** The stances, in the order the nodes take them. */
export const STANCES = ["support", "oppose", "conditional", "neutral"] as const;

/**
 * The star-shaped map of `n` nodes with camps `clusters`.
 *
 * @example
 * ```ts
 * const map = starMap(6, [{ label: "Yes", stance: "support", nodeIds: ["n1"], summary: "" }]);
 * ```
 */
export function starMap(n: number, clusters: OpinionMapValue["clusters"]): OpinionMapValue {
  const nodes = Array.from({ length: n }, (_, i) => ({
    id: `n${i + 1}`,
    messageId: `m${i + 1}`,
    stance: STANCES[i % 4],
    summary: `Answer summary ${i}`,
    keyArgument: "",
    weight: (i % 5) / 4,
  }));
  return {
    nodes,
    edges: nodes.slice(1).map((node) => ({
      source: node.id,
      target: "n1",
      relation: "support" as const,
      reason: "",
    })),
    clusters,
  };
}

/**
 * Where an opinion map's shapes go in its picture (components/insights/OpinionMap.tsx):
 * the nodes on one circle, camp by camp (each cluster an arc, the unclustered last), a node's
 * size by its weight, edges as curves bent toward the centre (a chord diagram: edges cross
 * the middle, never a node), each ending at the rim of its target so its arrow shows.
 * Pure geometry in a fixed `viewBox`; the SVG scales to its column, so the same drawing
 * serves 1280 and 390 pixels wide.
 *
 * @module
 */
import type { OpinionMapValue, StanceValue } from "../schemas/insights.ts";

/** A node's place. */
export interface PlacedNode {
  id: string;
  /** 1-based number shown in the shape and in the text list. */
  number: number;
  messageId: string;
  stance: StanceValue;
  x: number;
  y: number;
  /** Half the shape's size. */
  r: number;
}

/** An edge's curve: an SVG path. */
export interface PlacedEdge {
  source: string;
  target: string;
  relation: string;
  d: string;
}

/** A camp's label place. */
export interface PlacedCluster {
  label: string;
  stance: StanceValue;
  x: number;
  y: number;
  anchor: "start" | "middle" | "end";
}

/** The whole picture. */
export interface MapLayout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  clusters: PlacedCluster[];
}

const MARGIN_X = 120;
/** Longest camp label in the picture (the text list has the whole one). */
export const CAMP_LABEL_CHARS = 12;
/** About how wide one character of a camp label is (15px bold). */
const CHAR_WIDTH = 8.8;
const MARGIN_Y = 50;
const round = (n: number) => Math.round(n * 10) / 10;

/**
 * The nodes in drawing order: cluster by cluster, then the ones in no cluster.
 *
 * @example
 * ```ts
 * import type { OpinionMapValue } from "@/lib/schemas/insights.ts";
 * declare const map: OpinionMapValue;
 * const order = nodeOrder(map); // ["n2", "n1", …]
 * ```
 */
export function nodeOrder(map: OpinionMapValue): string[] {
  const order: string[] = [];
  for (const c of map.clusters) for (const id of c.nodeIds) if (!order.includes(id)) order.push(id);
  for (const n of map.nodes) if (!order.includes(n.id)) order.push(n.id);
  return order;
}

/**
 * Lay out a map.
 *
 * @example
 * ```ts
 * import type { OpinionMapValue } from "@/lib/schemas/insights.ts";
 * declare const map: OpinionMapValue;
 * const { width, height, nodes } = layoutMap(map);
 * ```
 */
export function layoutMap(map: OpinionMapValue): MapLayout {
  const order = nodeOrder(map);
  const n = order.length;
  // Room for the largest shape (r 25) and a gap around the circle.
  const radius = Math.max(110, (n * 60) / (2 * Math.PI));
  const cx = radius + MARGIN_X;
  const cy = radius + MARGIN_Y;
  const byId = new Map(map.nodes.map((node, i) => [node.id, { node, number: i + 1 }]));
  const angleOf = new Map<string, number>();
  const nodes: PlacedNode[] = order.map((id, i) => {
    const { node, number } = byId.get(id)!;
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, n);
    angleOf.set(id, angle);
    return {
      id,
      number,
      messageId: node.messageId,
      stance: node.stance,
      x: round(cx + radius * Math.cos(angle)),
      y: round(cy + radius * Math.sin(angle)),
      r: round(17 + node.weight * 8),
    };
  });
  const at = new Map(nodes.map((p) => [p.id, p]));
  const edges: PlacedEdge[] = map.edges.map((e) => {
    const s = at.get(e.source)!;
    const t = at.get(e.target)!;
    // Control point: the chord's middle pulled most of the way to the centre.
    const qx = cx + ((s.x + t.x) / 2 - cx) * 0.25;
    const qy = cy + ((s.y + t.y) / 2 - cy) * 0.25;
    const end = toward(t, qx, qy, t.r + 7);
    const start = toward(s, qx, qy, s.r + 2);
    return {
      source: e.source,
      target: e.target,
      relation: e.relation,
      d: `M${round(start.x)} ${round(start.y)} Q${round(qx)} ${round(qy)} ${round(end.x)} ${
        round(end.y)
      }`,
    };
  });
  const clusters: PlacedCluster[] = map.clusters.map((c) => {
    const angles = c.nodeIds.map((id) => angleOf.get(id)!).filter((a) => a !== undefined);
    const mid = angles.length ? angles.reduce((a, b) => a + b, 0) / angles.length : 0;
    const lx = cx + (radius + 36) * Math.cos(mid);
    const ly = cy + (radius + 36) * Math.sin(mid);
    const side = Math.cos(mid);
    const anchor = side > 0.3 ? "start" : side < -0.3 ? "end" : "middle";
    const label = c.label.length <= CAMP_LABEL_CHARS
      ? c.label
      : `${c.label.slice(0, CAMP_LABEL_CHARS - 1)}…`;
    // Kept inside the picture: a long label on the left or right side moves in.
    const w = label.length * CHAR_WIDTH;
    const width = 2 * (radius + MARGIN_X);
    const left = anchor === "end" ? lx - w : anchor === "middle" ? lx - w / 2 : lx;
    const shift = Math.max(0, 4 - left) - Math.max(0, left + w - (width - 4));
    return { label, stance: c.stance, x: round(lx + shift), y: round(ly + 5), anchor };
  });
  return {
    width: round(2 * (radius + MARGIN_X)),
    height: round(2 * (radius + MARGIN_Y)),
    nodes,
    edges,
    clusters,
  };
}

/** The point `dist` from `p` toward (qx, qy). */
function toward(p: { x: number; y: number }, qx: number, qy: number, dist: number) {
  const dx = qx - p.x;
  const dy = qy - p.y;
  const len = Math.hypot(dx, dy) || 1;
  return { x: p.x + (dx / len) * dist, y: p.y + (dy / len) * dist };
}

/**
 * Zod schemas of a question's opinion map and thread summary (`GET /api/questions/:id/map`,
 * `GET /api/questions/:id/summary` and the MCP `read_thread_insights` tool): what is
 * served, validated before it is stored and again in the tests. Both are AI-written and
 * labelled so wherever they are shown.
 *
 * @module
 */
import { z } from "zod";

/** Where an answer stands on the question. */
export const STANCES = ["support", "oppose", "neutral", "conditional"] as const;
/** How one answer relates to another. */
export const RELATIONS = ["support", "oppose", "supplement", "evolve"] as const;

/** Longest node summary (one line). */
export const NODE_SUMMARY_MAX = 140;
/** Longest key argument of a node. */
export const KEY_ARGUMENT_MAX = 200;
/** Longest reason of an edge. */
export const EDGE_REASON_MAX = 140;
/** Longest cluster label. */
export const CLUSTER_LABEL_MAX = 60;
/** Longest cluster summary. */
export const CLUSTER_SUMMARY_MAX = 240;
/** Most nodes of a map: the answers a map is drawn from (the rest are not mapped). */
export const MAP_NODES_MAX = 24;
/** Most edges of a map. */
export const MAP_EDGES_MAX = 36;
/** Most clusters of a map. */
export const MAP_CLUSTERS_MAX = 6;
/** Longest summary text ("short": a paragraph). */
export const SUMMARY_TEXT_MAX = 900;
/** Most answers one summary cites. */
export const SUMMARY_CITES_MAX = 12;

/** A stance. */
export const Stance = z.enum(STANCES).meta({ id: "Stance" });

/** One answer on the map. */
export const MapNode = z.object({
  id: z.string().min(1).max(40).meta({
    description: "The node's id within this map (`n1`, `n2`, …).",
  }),
  messageId: z.string().min(1).meta({ description: "The answer it stands for." }),
  stance: Stance,
  summary: z.string().min(1).max(NODE_SUMMARY_MAX).meta({ description: "The answer in one line." }),
  keyArgument: z.string().max(KEY_ARGUMENT_MAX).meta({ description: "Its main argument." }),
  weight: z.number().min(0).max(1).meta({
    description: "How much the answer weighs in the thread, 0 to 1 (substance and votes).",
  }),
}).meta({ id: "MapNode" });

/** How two answers relate. */
export const MapEdge = z.object({
  source: z.string().min(1).meta({ description: "A node id." }),
  target: z.string().min(1).meta({ description: "A node id (not the source)." }),
  relation: z.enum(RELATIONS).meta({
    description:
      "The source supports, opposes, supplements (adds to) or evolves (refines) the target.",
  }),
  reason: z.string().max(EDGE_REASON_MAX),
}).meta({ id: "MapEdge" });

/** A camp of answers. */
export const MapCluster = z.object({
  label: z.string().min(1).max(CLUSTER_LABEL_MAX),
  stance: Stance,
  nodeIds: z.array(z.string().min(1)).min(1).meta({
    description: "Its nodes (each in one cluster).",
  }),
  summary: z.string().max(CLUSTER_SUMMARY_MAX),
}).meta({ id: "MapCluster" });

/**
 * An opinion map whose references hold: node ids are unique, each message at most once,
 * every edge joins two different nodes, every cluster names existing nodes.
 */
export const OpinionMap = z.object({
  nodes: z.array(MapNode).min(1).max(MAP_NODES_MAX),
  edges: z.array(MapEdge).max(MAP_EDGES_MAX),
  clusters: z.array(MapCluster).max(MAP_CLUSTERS_MAX),
}).superRefine((map, ctx) => {
  const ids = new Set<string>();
  const messages = new Set<string>();
  for (const n of map.nodes) {
    if (ids.has(n.id)) ctx.addIssue({ code: "custom", message: `duplicate node id ${n.id}` });
    if (messages.has(n.messageId)) {
      ctx.addIssue({ code: "custom", message: `message ${n.messageId} mapped twice` });
    }
    ids.add(n.id);
    messages.add(n.messageId);
  }
  for (const e of map.edges) {
    if (!ids.has(e.source) || !ids.has(e.target) || e.source === e.target) {
      ctx.addIssue({ code: "custom", message: `edge ${e.source}→${e.target} joins no two nodes` });
    }
  }
  for (const c of map.clusters) {
    for (const id of c.nodeIds) {
      if (!ids.has(id)) ctx.addIssue({ code: "custom", message: `cluster names unknown ${id}` });
    }
  }
}).meta({ id: "OpinionMap" });

/** The states of a map or summary as served. */
export const InsightStatus = z.enum(["ready", "generating", "too_few_answers", "unavailable"])
  .meta({
    id: "InsightStatus",
    description:
      "`ready`: the served one is current. `generating`: a new one is being written (the served one, or null, until then). `too_few_answers`: under the threshold. `unavailable`: no model, or today's AI budget is spent (the last one, or null, is served).",
  });

/** `GET /api/questions/:id/map`. */
export const MapResponse = z.object({
  map: OpinionMap.nullable().meta({
    description: "Null with fewer than 3 answers, or before the first one is written.",
  }),
  messageCount: z.int().min(0).meta({
    description:
      "Answers (people's and agents', not the AI panel's, not hidden or deleted) the map was made from; with no map, the thread's answers now.",
  }),
  generatedAt: z.int().nullable().meta({ description: "Unix ms; null without a map." }),
  status: InsightStatus,
  aiGenerated: z.literal(true).meta({ description: "Always true: the map is written by a model." }),
}).meta({ id: "OpinionMapResponse" });

/** A thread summary. */
export const ThreadSummary = z.object({
  text: z.string().min(1).max(SUMMARY_TEXT_MAX).meta({
    description:
      "What the answers agree on, where they differ, the accepted answer's point. `[1]`, `[2]` … refer to `cites` by position.",
  }),
  cites: z.array(z.string().min(1)).max(SUMMARY_CITES_MAX).meta({
    description: "Ids of the answers the text cites, in the order of their markers.",
  }),
}).meta({ id: "ThreadSummary" });

/** `GET /api/questions/:id/summary`. */
export const SummaryResponse = z.object({
  summary: ThreadSummary.nullable().meta({
    description: "Null under 8 answers, or before the first one is written.",
  }),
  messageCount: z.int().min(0),
  generatedAt: z.int().nullable(),
  status: InsightStatus,
  aiGenerated: z.literal(true),
}).meta({ id: "ThreadSummaryResponse" });

/** The MCP tool's input. */
export const ThreadInsightsInput = z.object({
  id: z.string({ error: "id is required" }).min(1, { error: "id is required" }).meta({
    description: "Question id.",
  }),
});

/** The MCP tool's answer: both in one call. */
export const ThreadInsights = z.object({
  questionId: z.string(),
  summary: SummaryResponse,
  map: MapResponse,
}).meta({ id: "ThreadInsights" });

export type OpinionMapValue = z.infer<typeof OpinionMap>;
export type MapNodeValue = z.infer<typeof MapNode>;
export type MapEdgeValue = z.infer<typeof MapEdge>;
export type MapClusterValue = z.infer<typeof MapCluster>;
export type StanceValue = z.infer<typeof Stance>;
export type ThreadSummaryValue = z.infer<typeof ThreadSummary>;
export type MapResponseValue = z.infer<typeof MapResponse>;
export type SummaryResponseValue = z.infer<typeof SummaryResponse>;
export type InsightStatusValue = z.infer<typeof InsightStatus>;

/**
 * From what a model wrote to a map or summary that holds: labels (`A3`) mapped back to
 * message ids, node ids renumbered `n1…`, stances and relations read leniently ("against"
 * is `oppose`), texts clipped at a word, and every reference checked — an edge or cluster
 * member naming no node is dropped, not served. The result is validated with the
 * contract's schema (lib/schemas/insights.ts); anything that still fails is null, never
 * stored.
 *
 * @module
 */
import { z } from "zod";
import {
  CLUSTER_LABEL_MAX,
  CLUSTER_SUMMARY_MAX,
  EDGE_REASON_MAX,
  KEY_ARGUMENT_MAX,
  MAP_CLUSTERS_MAX,
  MAP_EDGES_MAX,
  MAP_NODES_MAX,
  type MapClusterValue,
  type MapEdgeValue,
  type MapNodeValue,
  NODE_SUMMARY_MAX,
  OpinionMap,
  type OpinionMapValue,
  RELATIONS,
  STANCES,
  type StanceValue,
  SUMMARY_CITES_MAX,
  SUMMARY_TEXT_MAX,
  ThreadSummary,
  type ThreadSummaryValue,
} from "../schemas/insights.ts";
import type { InsightAnswer } from "./answers.ts";

/** What a model's map must at least look like to be worth repairing. */
export const RawMap = z.object({
  nodes: z.array(z.record(z.string(), z.unknown())).min(1),
  edges: z.array(z.unknown()).optional(),
  clusters: z.array(z.unknown()).optional(),
});

/** What a model's summary must at least look like. */
export const RawSummary = z.object({
  text: z.string().min(1),
  cites: z.array(z.unknown()).optional(),
});

/**
 * `text` flattened to one line and cut to at most `max` characters at a word boundary,
 * with "…" when cut.
 *
 * @example
 * ```ts
 * clip("one two three", 9); // "one two…"
 * ```
 */
export function clip(text: unknown, max: number): string {
  if (typeof text !== "string") return "";
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const head = flat.slice(0, max);
  const space = head.lastIndexOf(" ");
  const cut = (space > max / 2 ? head.slice(0, space) : head.slice(0, max - 1))
    .replace(/[\s,;:—–-]+$/u, "");
  return `${cut.slice(0, max - 1)}…`;
}

const STANCE_WORDS: [RegExp, StanceValue][] = [
  [/^(support|for|pro|yes|agree|in favou?r)/, "support"],
  [/^(oppose|against|con\b|no\b|disagree|reject)/, "oppose"],
  [/^(conditional|depends|it depends|mixed|qualified|partly|partial)/, "conditional"],
  [/^(neutral|unclear|informational|none)/, "neutral"],
];

/**
 * A stance read leniently; null when it names none.
 *
 * @example
 * ```ts
 * readStance("Against"); // "oppose"
 * readStance("maybe?"); // null
 * ```
 */
export function readStance(raw: unknown): StanceValue | null {
  if (typeof raw !== "string") return null;
  const s = raw.trim().toLowerCase();
  if ((STANCES as readonly string[]).includes(s)) return s as StanceValue;
  for (const [re, stance] of STANCE_WORDS) if (re.test(s)) return stance;
  return null;
}

const RELATION_WORDS: [RegExp, MapEdgeValue["relation"]][] = [
  [/^(support|agree|back|confirm)/, "support"],
  [/^(oppose|contradict|rebut|disagree|counter|refute)/, "oppose"],
  [/^(supplement|add|extend|complement|expand)/, "supplement"],
  [/^(evolve|refine|build|develop|revise|improve)/, "evolve"],
];

function readRelation(raw: unknown): MapEdgeValue["relation"] | null {
  if (typeof raw !== "string") return null;
  const s = raw.trim().toLowerCase();
  if ((RELATIONS as readonly string[]).includes(s)) return s as MapEdgeValue["relation"];
  for (const [re, rel] of RELATION_WORDS) if (re.test(s)) return rel;
  return null;
}

/** The answer a model's reference names: a label (`A3`, `a3`, `3`) or a message id. */
function answerByRef(answers: InsightAnswer[], ref: unknown): InsightAnswer | undefined {
  if (typeof ref === "number") return answers[ref - 1];
  if (typeof ref !== "string") return undefined;
  const s = ref.trim().replace(/^\[|\]$/g, "");
  const n = /^a?(\d{1,3})$/i.exec(s);
  if (n) return answers.find((a) => a.label === `A${Number(n[1])}`);
  return answers.find((a) => a.id === s);
}

/** The first sentence of an answer, as a node summary when the model gave none. */
function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const m = /^(.{12,}?[.!?])(\s|$)/.exec(flat);
  return m ? m[1] : flat;
}

function readWeight(raw: unknown): number {
  let w = typeof raw === "string" ? Number(raw) : typeof raw === "number" ? raw : NaN;
  if (!Number.isFinite(w)) return 0.5;
  if (w > 1 && w <= 100) w = w / 100;
  return Math.round(Math.min(1, Math.max(0, w)) * 100) / 100;
}

/**
 * A map that holds, from a model's raw map and the answers it was shown; null when no
 * node survives.
 *
 * @example
 * ```ts
 * const answers = [{ id: "msg-1", label: "A1", author: "Ada", content: "Yes, do it.", accepted: false, revision: 1 }];
 * const map = repairMap({ nodes: [{ answer: "A1", stance: "for", summary: "Do it" }] }, answers);
 * map?.nodes[0]; // { id: "n1", messageId: "msg-1", stance: "support", … }
 * ```
 */
export function repairMap(raw: unknown, answers: InsightAnswer[]): OpinionMapValue | null {
  const parsed = RawMap.safeParse(raw);
  if (!parsed.success) return null;
  const nodes: MapNodeValue[] = [];
  /** A model's node id or an answer's label → the node's id here. */
  const refs = new Map<string, string>();
  const used = new Set<string>();
  for (const n of parsed.data.nodes) {
    if (nodes.length >= MAP_NODES_MAX) break;
    const answer = answerByRef(answers, n.answer ?? n.messageId ?? n.label ?? n.id);
    if (!answer || used.has(answer.id)) continue;
    used.add(answer.id);
    const id = `n${nodes.length + 1}`;
    if (typeof n.id === "string") refs.set(n.id.trim(), id);
    refs.set(answer.label, id);
    refs.set(answer.id, id);
    nodes.push({
      id,
      messageId: answer.id,
      stance: readStance(n.stance) ?? "neutral",
      summary: clip(n.summary, NODE_SUMMARY_MAX) ||
        clip(firstSentence(answer.content), NODE_SUMMARY_MAX) || answer.label,
      keyArgument: clip(n.keyArgument ?? n.key_argument, KEY_ARGUMENT_MAX),
      weight: readWeight(n.weight),
    });
  }
  if (nodes.length === 0) return null;
  // Free text may name answers by label ("A3"): the reader sees node numbers instead.
  const numberOfAnswer = new Map(nodes.map((n, i) => [n.messageId, i + 1]));
  const relabel = (text: string) =>
    text.replace(/\bA(\d{1,3})\b/g, (all, n: string) => {
      const a = answers.find((x) => x.label === `A${Number(n)}`);
      const k = a ? numberOfAnswer.get(a.id) : undefined;
      return k ? `answer ${k}` : a ? "another answer" : all;
    });
  for (const n of nodes) {
    n.summary = relabel(n.summary);
    n.keyArgument = relabel(n.keyArgument);
  }
  const nodeRef = (ref: unknown): string | undefined => {
    if (typeof ref !== "string" && typeof ref !== "number") return undefined;
    const s = String(ref).trim();
    return refs.get(s) ?? refs.get(s.toUpperCase()) ??
      refs.get(answerByRef(answers, ref)?.id ?? "");
  };
  const edges: MapEdgeValue[] = [];
  const seen = new Set<string>();
  for (const e of parsed.data.edges ?? []) {
    if (edges.length >= MAP_EDGES_MAX) break;
    if (!e || typeof e !== "object") continue;
    const r = e as Record<string, unknown>;
    const source = nodeRef(r.source ?? r.from);
    const target = nodeRef(r.target ?? r.to);
    const relation = readRelation(r.relation ?? r.type);
    if (!source || !target || source === target || !relation) continue;
    const key = `${source}>${target}`;
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push({
      source,
      target,
      relation,
      reason: clip(relabel(String(r.reason ?? "")), EDGE_REASON_MAX),
    });
  }
  const clusters: MapClusterValue[] = [];
  const clustered = new Set<string>();
  const stanceOf = new Map(nodes.map((n) => [n.id, n.stance]));
  for (const c of parsed.data.clusters ?? []) {
    if (clusters.length >= MAP_CLUSTERS_MAX) break;
    if (!c || typeof c !== "object") continue;
    const r = c as Record<string, unknown>;
    const members = (Array.isArray(r.nodeIds) ? r.nodeIds : Array.isArray(r.nodes) ? r.nodes : [])
      .map(nodeRef)
      .filter((id): id is string => !!id && !clustered.has(id));
    const nodeIds = [...new Set(members)];
    if (nodeIds.length === 0) continue;
    for (const id of nodeIds) clustered.add(id);
    const stance = readStance(r.stance) ?? majority(nodeIds.map((id) => stanceOf.get(id)!));
    clusters.push({
      label: clip(r.label ?? r.name, CLUSTER_LABEL_MAX) || stanceLabel(stance),
      stance,
      nodeIds,
      summary: clip(relabel(String(r.summary ?? "")), CLUSTER_SUMMARY_MAX),
    });
  }
  const map = { nodes, edges, clusters };
  const checked = OpinionMap.safeParse(map);
  return checked.success ? checked.data : null;
}

function majority(stances: StanceValue[]): StanceValue {
  const counts = new Map<StanceValue, number>();
  for (const s of stances) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "neutral";
}

/**
 * A stance as words.
 *
 * @example
 * ```ts
 * stanceLabel("conditional"); // "Conditional"
 * ```
 */
export function stanceLabel(stance: StanceValue): string {
  return stance[0].toUpperCase() + stance.slice(1);
}

/**
 * A summary that holds: label markers (`[A3]`, `[A1, A4]`) become `[1]`, `[2]` … in the
 * order answers are first cited, unknown labels are dropped, the text is cut at a word; when
 * the text cites nothing, the model's `cites` (labels) are kept as the list. Null when no
 * text is left.
 *
 * @example
 * ```ts
 * const answers = [{ id: "msg-9", label: "A1", author: "Ada", content: "Yes.", accepted: true, revision: 1 }];
 * repairSummary({ text: "Most agree [A1]." }, answers); // { text: "Most agree [1].", cites: ["msg-9"] }
 * ```
 */
export function repairSummary(
  raw: unknown,
  answers: InsightAnswer[],
): ThreadSummaryValue | null {
  const parsed = RawSummary.safeParse(raw);
  if (!parsed.success) return null;
  const cites: string[] = [];
  const number = (a: InsightAnswer): number | null => {
    let i = cites.indexOf(a.id);
    if (i === -1) {
      if (cites.length >= SUMMARY_CITES_MAX) return null;
      cites.push(a.id);
      i = cites.length - 1;
    }
    return i + 1;
  };
  const flat = parsed.data.text.replace(/\s+/g, " ").trim();
  let text = flat.replace(/\[\s*((?:A?\d{1,3}\s*[,;]?\s*)+)\]/gi, (_all, inner: string) => {
    const nums = inner.split(/[,;\s]+/).filter(Boolean)
      .map((ref) => answerByRef(answers, ref))
      .flatMap((a) => a ? [number(a)] : [])
      .filter((n): n is number => n !== null);
    return nums.length ? nums.map((n) => `[${n}]`).join("") : "";
  }).replace(/\s+([.,;:!?])/g, "$1").replace(/\s{2,}/g, " ").trim();
  if (cites.length === 0) {
    for (const ref of parsed.data.cites ?? []) {
      const a = answerByRef(answers, ref);
      if (a && !cites.includes(a.id) && cites.length < SUMMARY_CITES_MAX) cites.push(a.id);
    }
  }
  if (text.length > SUMMARY_TEXT_MAX) {
    // Cut at a sentence when one ends late enough, else at a word; never inside a marker.
    const head = text.slice(0, SUMMARY_TEXT_MAX - 1);
    const sentence = head.search(/[.!?](?:\[\d+\])*\s[^.!?]*$/);
    text = sentence > SUMMARY_TEXT_MAX / 2
      ? head.slice(
        0,
        head.indexOf(" ", sentence) === -1 ? head.length : head.indexOf(" ", sentence),
      )
      : clip(head.replace(/\[\d*$/, ""), SUMMARY_TEXT_MAX);
    // Markers cut away leave their cites: keep only those still named.
    const named = new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
    if (named.size) {
      const keep = cites.filter((_, i) => named.has(i + 1));
      const renumber = new Map(cites.map((id, i) => [i + 1, keep.indexOf(id) + 1]));
      text = text.replace(/\[(\d+)\]/g, (_m, n: string) => `[${renumber.get(Number(n))}]`);
      cites.splice(0, cites.length, ...keep);
    }
  }
  const checked = ThreadSummary.safeParse({ text: text.trim(), cites });
  return checked.success ? checked.data : null;
}

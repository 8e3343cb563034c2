/**
 * The stand-in model's opinion maps and thread summaries (lib/insights/prompts.ts): it
 * reads the `[A<n>]` answer lines of a `Task: opinion map` or `Task: thread summary`
 * prompt and answers with plausible, deterministic JSON — each answer's stance from its
 * words ("depends", "unless" → conditional; "no", "avoid", "never" → oppose; "yes",
 * "should", "recommend" → support), its first sentence as the summary, the sentence with
 * "because" as the key argument, edges to the first answer of the same or the opposite
 * camp, one cluster per stance, and a summary from the camps' leading answers with their
 * labels cited; the answers' Markdown is read as its plain words. Same prompt, same answer.
 *
 * @module
 */
import { cutAtWord } from "./compose.ts";
import { excerpt } from "../../text/excerpt.ts";

/** One answer line of the prompt. */
interface PromptAnswer {
  label: string;
  accepted: boolean;
  text: string;
}

type Stance = "support" | "oppose" | "neutral" | "conditional";

/**
 * The answers of an insights prompt, or null when `prompt` is not one.
 *
 * @example
 * ```ts
 * readInsightPrompt("Task: opinion map\n[A1] (accepted) Yes.")?.answers[0].label; // "A1"
 * ```
 */
export function readInsightPrompt(
  prompt: string,
): { task: "map" | "summary"; answers: PromptAnswer[] } | null {
  const task = /^Task: (opinion map|thread summary)\s*$/m.exec(prompt)?.[1];
  if (!task) return null;
  const answers: PromptAnswer[] = [];
  for (const m of prompt.matchAll(/^\[(A\d{1,3})\]( \(accepted\))? (.+)$/gm)) {
    // The answers' words without their Markdown: the stand-in quotes them in summaries,
    // which are shown as text ("**KV**" would be read literally).
    answers.push({ label: m[1], accepted: !!m[2], text: excerpt(m[3], m[3].length) });
  }
  return { task: task === "opinion map" ? "map" : "summary", answers };
}

const has = (text: string, re: RegExp) => (text.match(re) ?? []).length;

/**
 * An answer's stance from its words.
 *
 * @example
 * ```ts
 * stanceOf("It depends on the team."); // "conditional"
 * stanceOf("No, avoid it."); // "oppose"
 * ```
 */
export function stanceOf(text: string): Stance {
  const t = ` ${text.toLowerCase()} `;
  if (has(t, /\b(it depends|depends on|unless|only if|only when|as long as|in some cases)\b/g)) {
    return "conditional";
  }
  const against = has(
    t,
    /\b(no|not|never|avoid|against|don't|do not|shouldn't|should not|bad idea|disagree|wrong|stop)\b/g,
  );
  const pro = has(
    t,
    /\b(yes|agree|definitely|should|recommend|always|good idea|worth|prefer|use it|go for)\b/g,
  );
  if (against > pro) return "oppose";
  if (pro > against) return "support";
  return "neutral";
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function sentences(text: string): string[] {
  return text.match(/[^.!?]+[.!?]+|[^.!?]+$/g)?.map((s) => s.trim()).filter(Boolean) ?? [];
}

const CAMP: Record<Stance, string> = {
  support: "In favour",
  oppose: "Against",
  conditional: "It depends",
  neutral: "Other points",
};

function nodesOf(answers: PromptAnswer[]) {
  return answers.map((a, i) => {
    const s = sentences(a.text);
    // The reason given ("because …"), else the second sentence; none when there is neither.
    const because = /\b(?:because|since|so that)\b\s*([^.!?]+)/i.exec(a.text)?.[1];
    const weight = a.accepted ? 0.9 : Math.min(0.8, 0.3 + Math.round(a.text.length / 40) / 100);
    return {
      id: `n${i + 1}`,
      answer: a.label,
      stance: stanceOf(a.text),
      summary: cutAtWord(s[0] ?? a.text, 140),
      keyArgument: cutAtWord(because ? capitalize(because.trim()) : s[1] ?? "", 200),
      weight: Math.round(weight * 100) / 100,
    };
  });
}

/**
 * The stand-in's opinion map of the answers, as the JSON text a model would send.
 *
 * @example
 * ```ts
 * const json = standInMap([{ label: "A1", accepted: false, text: "Yes, use it." }]);
 * JSON.parse(json).nodes[0].stance; // "support"
 * ```
 */
export function standInMap(answers: PromptAnswer[]): string {
  const nodes = nodesOf(answers);
  const edges: { source: string; target: string; relation: string; reason: string }[] = [];
  nodes.forEach((n, i) => {
    if (i === 0 || edges.length >= 36) return;
    const earlier = nodes.slice(0, i);
    const same = earlier.find((e) => e.stance === n.stance);
    const opposite = earlier.find((e) =>
      (n.stance === "support" && e.stance === "oppose") ||
      (n.stance === "oppose" && e.stance === "support")
    );
    const text = answers[i].text;
    if (opposite) {
      edges.push({
        source: n.id,
        target: opposite.id,
        relation: "oppose",
        reason: `${opposite.answer} is ${
          opposite.stance === "support" ? "for" : "against"
        } it; ${n.answer} is not`,
      });
    } else if (n.stance === "conditional" && earlier.length > 0) {
      edges.push({
        source: n.id,
        target: earlier[0].id,
        relation: "evolve",
        reason: `Adds the conditions under which ${earlier[0].answer} holds`,
      });
    } else if (same) {
      const adds = /\b(also|another|add|plus|moreover|too)\b/i.test(text);
      edges.push({
        source: n.id,
        target: same.id,
        relation: adds ? "supplement" : "support",
        reason: adds ? `Adds another point to ${same.answer}` : `Same view as ${same.answer}`,
      });
    }
  });
  const clusters = (["support", "oppose", "conditional", "neutral"] as const)
    .map((stance) => ({ stance, members: nodes.filter((n) => n.stance === stance) }))
    .filter((c) => c.members.length > 0)
    .map(({ stance, members }) => {
      const lead = [...members].sort((a, b) => b.weight - a.weight)[0];
      return {
        label: CAMP[stance],
        stance,
        nodeIds: members.map((m) => m.id),
        summary: cutAtWord(
          `${members.length} answer${
            members.length === 1 ? "" : "s"
          }; the weightiest: ${lead.summary}`,
          240,
        ),
      };
    });
  return JSON.stringify({ nodes, edges, clusters });
}

/**
 * The stand-in's thread summary, as JSON text: the majority, each camp's leading answer
 * with its label cited, and the accepted answer's point.
 *
 * @example
 * ```ts
 * const json = standInSummary([{ label: "A1", accepted: true, text: "Yes, use it." }]);
 * JSON.parse(json).cites; // ["A1"]
 * ```
 */
export function standInSummary(answers: PromptAnswer[]): string {
  const nodes = nodesOf(answers);
  const counts = new Map<Stance, number>();
  for (const n of nodes) counts.set(n.stance, (counts.get(n.stance) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const parts: string[] = [];
  const cites: string[] = [];
  const cite = (label: string) => {
    if (!cites.includes(label)) cites.push(label);
    return `[${label}]`;
  };
  if (ranked.length > 0) {
    const [top, n] = ranked[0];
    parts.push(
      `${n} of ${nodes.length} answers are ${
        CAMP[top].toLowerCase().replace("it depends", "conditional")
      }.`,
    );
  }
  for (const [stance] of ranked.slice(0, 3)) {
    const lead = nodes.filter((n) => n.stance === stance).sort((a, b) => b.weight - a.weight)[0];
    parts.push(
      `${CAMP[stance]}: ${cutAtWord(lead.summary, 120).replace(/[.!?]*$/, "")} ${
        cite(lead.answer)
      }.`,
    );
  }
  const accepted = nodes.find((_n, i) => answers[i].accepted);
  if (accepted) {
    parts.push(
      `The accepted answer's point: ${
        cutAtWord(accepted.keyArgument, 140).replace(/[.!?]*$/, "")
      } ${cite(accepted.answer)}.`,
    );
  }
  return JSON.stringify({ text: cutAtWord(parts.join(" "), 700), cites });
}

/**
 * The stand-in's answer to an insights prompt, or null when the prompt is not one.
 *
 * @example
 * ```ts
 * composeInsight("Task: thread summary\n[A1] Yes.") !== null; // true
 * ```
 */
export function composeInsight(prompt: string): string | null {
  const read = readInsightPrompt(prompt);
  if (!read) return null;
  return read.task === "map" ? standInMap(read.answers) : standInSummary(read.answers);
}

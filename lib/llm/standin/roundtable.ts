/**
 * The stand-in model at a Parley AI roundtable (lib/roundtables/prompts.ts): it chooses
 * the panel for a topic from the roster the prompt lists (the experts whose fields share
 * the most words with the topic, 3 to 5), and writes the minutes — a stance per panelist
 * drawn from what that panelist said, points of consensus and disagreement naming the
 * experts, a conclusion and open questions. The statements themselves are the AI-expert
 * voice of ./expert.ts. Deterministic per prompt.
 *
 * @module
 */
import { composeText, cutAtWord, keywords, seededRandom } from "./compose.ts";
import { composeExpert } from "./expert.ts";
import { type PromptReading, transcriptLines } from "./read_prompt.ts";

/** What every roundtable prompt says it is part of. */
const MARK = "Parley AI roundtable";

interface RosterEntry {
  id: string;
  name: string;
  title: string;
  fields: string[];
}

/** The `- id: Name, Title (fields)` lines of a prompt (fields optional). */
function rosterOf(text: string): RosterEntry[] {
  const out: RosterEntry[] = [];
  for (
    const m of text.matchAll(
      /^- ([\w-]{1,40}): ([^,\n]{1,60}), ([^(\n]{1,80})(?:\(([^)\n]*)\))?$/gm,
    )
  ) {
    out.push({
      id: m[1],
      name: m[2].trim(),
      title: m[3].trim(),
      fields: (m[4] ?? "").split(",").map((f) => f.trim().toLowerCase()).filter(Boolean),
    });
  }
  return out;
}

function topicWords(reading: PromptReading, text: string): string[] {
  const background = /^\s*Background:\s*(.+)$/im.exec(text)?.[1] ?? "";
  return keywords(`${reading.topic} ${background}`, 24);
}

/** The panel: the roster ranked by shared words with the topic, 3 to 5 of them. */
function choosePanel(roster: RosterEntry[], reading: PromptReading, text: string): string[] {
  const words = topicWords(reading, text);
  const scored = roster.map((e, i) => {
    const own = [...e.fields, ...keywords(e.title, 4)];
    const score = own.filter((f) =>
      words.some((w) =>
        w === f || (w.length >= 4 && (w.startsWith(f) || f.startsWith(w)))
      )
    ).length;
    return { id: e.id, score, tie: (reading.seed + i * 2654435761) % 1000 };
  });
  scored.sort((a, b) => b.score - a.score || a.tie - b.tie);
  const matched = scored.filter((s) => s.score > 0).length;
  return scored.slice(0, Math.min(5, Math.max(3, matched))).map((s) => s.id);
}

const firstSentence = (text: string, max: number) => {
  const m = /^(.+?[.!?])(\s|$)/.exec(text.trim());
  return cutAtWord(m ? m[1] : text.trim(), max);
};

/** The minutes of the transcript in the prompt, one stance per panelist. */
function writeMinutes(panel: RosterEntry[], reading: PromptReading, text: string) {
  const rng = seededRandom(reading.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)];
  const lines = transcriptLines(text);
  const words = topicWords(reading, text).filter((w) => w.length >= 4);
  const kw = words.length ? pick(words) : "the question";
  const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
  const stances = panel.map((e, i) => {
    const said = lines.filter((l) => l.name === e.name).map((l) => l.text);
    const position = composeExpert({ name: e.name, title: e.title }, reading.topic, {
      seed: reading.seed ^ (i + 1) * 0x9e3779b1,
      minChars: 60,
      maxChars: 220,
    });
    const keyPoints = [...new Set(said.slice(-3).map((s) => firstSentence(s, 200)))]
      .filter((s) => s.length > 0).slice(0, 3);
    return { expertId: e.id, position: firstSentence(position, 400), keyPoints };
  });
  const [a, b] = [panel[0], panel[1] ?? panel[0]];
  const statement = (salt: number, max = 160) =>
    composeText({
      topic: reading.topic,
      minChars: 40,
      maxChars: max,
      seed: reading.seed ^ salt,
      style: "statement",
    });
  const question = (salt: number) =>
    composeText({
      topic: reading.topic,
      minChars: 20,
      maxChars: 140,
      seed: reading.seed ^ salt,
      style: "question",
    });
  return {
    consensus: [
      `The panel agreed that ${kw} needs evidence before any firm decision.`,
      statement(0x51),
    ],
    disagreements: [
      `${a.name} (${lower(a.title)}) and ${b.name} (${lower(b.title)}) weighed ${kw} ` +
      "differently: each put their own field's risks first.",
    ],
    stances,
    conclusion: `On ${reading.topic.replace(/[?.!]+$/, "")}, the experts ` +
      `(${panel.map((e) => e.name).join(", ")}) converged on a careful, step-by-step approach ` +
      `to ${kw}, while differing on what to weigh most.`.slice(0, 700),
    openQuestions: [question(0x71), question(0x73)].filter((q, i, all) => all.indexOf(q) === i),
  };
}

/**
 * The stand-in's JSON answer to a roundtable prompt (choosing the panel, or the minutes),
 * or null when `text` is no roundtable JSON prompt.
 *
 * @example
 * ```ts
 * import { readPrompt } from "./read_prompt.ts";
 * const text = "You seat the experts of a Parley AI roundtable. Choose the panel.\n- ada: Ada L, Architect (software)\nTopic: software";
 * const reading = readPrompt([{ role: "user", content: text }], true);
 * composeRoundtableJson(text, reading); // '{"expertIds":["ada"]}'
 * ```
 */
export function composeRoundtableJson(text: string, reading: PromptReading): string | null {
  if (!text.includes(MARK) || !reading.wantsJson) return null;
  if (/Choose the panel/.test(text)) {
    return JSON.stringify({ expertIds: choosePanel(rosterOf(text), reading, text) });
  }
  if (/minutes/i.test(text)) {
    const panelAt = text.indexOf("Panel:");
    const panel = rosterOf(panelAt >= 0 ? text.slice(panelAt) : text);
    if (panel.length === 0) return null;
    return JSON.stringify(writeMinutes(panel, reading, text));
  }
  return null;
}

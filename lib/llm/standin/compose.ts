/**
 * The stand-in model's writing: short on-topic sentences built from the topic, the
 * speaker's interests and the point being answered, fitted to a length window; and JSON
 * answers that fill the example object a prompt carries.
 *
 * It is deliberately simple and deterministic (same prompt, same answer): its job is
 * to exercise every code path offline, not to argue well.
 *
 * @module
 */
import type { PromptReading } from "./read_prompt.ts";
import { readBounds } from "./read_prompt.ts";

/** A small seeded PRNG (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STOPWORDS = new Set(
  ("a an the and or but if of to in on at by for with about from into over under is are was " +
    "were be been being it its this that these those we you i he she they them our your their " +
    "should would could can will do does did not no yes than then so as what which who whom how " +
    "why when where there here more most less very just also only any all some such own same " +
    "too up down out off again once my me us his her has have had vs versus whether " +
    "without within").split(" "),
);

/**
 * Content words of `text`, in order of first appearance, lowercase, without stopwords.
 *
 * @example
 * ```ts
 * keywords("Should cities ban cars downtown?"); // ["cities", "ban", "cars", "downtown"]
 * ```
 */
export function keywords(text: string, limit = 12): string[] {
  const seen = new Set<string>();
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []) {
    const w = raw.replace(/^'+|'+$/g, "");
    if (w.length < 3 || STOPWORDS.has(w) || /^\d+$/.test(w)) continue;
    seen.add(w);
    if (seen.size >= limit) break;
  }
  return [...seen];
}

/** `text` cut to at most `max` characters at a word boundary (no trailing punctuation). */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, max + 1);
  const space = slice.lastIndexOf(" ");
  const cut = space > 0 ? slice.slice(0, space) : text.slice(0, max);
  return cut.replace(/[\s,;:—–-]+$/u, "");
}

const pick = <T>(rng: () => number, list: readonly T[]): T => list[Math.floor(rng() * list.length)];

const CLAIMS = [
  "the real test is what happens to {kw} after five years, not five weeks",
  "the role of {kw} deserves more weight than this debate has given it",
  "we should judge it by evidence about {kw}, not by hopes",
  "the effect on {kw} changes the trade-offs more than people admit",
  "the costs to {kw} are easy to overlook and hard to undo",
  "small, reversible steps on {kw} beat grand plans",
  "ignoring {kw} would be the bigger risk here",
  "the practical answer lies in the details of {kw}",
  "who pays for changes to {kw} matters as much as who benefits",
  "the best lessons about {kw} came from careful trials, not slogans",
] as const;

const OPENERS = [
  "On {topic}, I think {claim}.",
  "Here is my view on {topic}: {claim}.",
  "Looking at {topic}, {claim}.",
  "My position on {topic} is simple: {claim}.",
] as const;

const REPLIES = [
  "You raise the point about {echo}, but {claim}.",
  "I hear you on {echo}; still, {claim}.",
  "The point about {echo} is fair, yet {claim}.",
  "Granted, {echo} counts for something. Even so, {claim}.",
] as const;

const FOLLOW_UPS = [
  "Consider what it means for {kw} in practice.",
  "That is where the argument turns.",
  "Evidence, not volume, should settle it.",
  "The details of {kw} decide the outcome.",
  "Any fair answer has to account for {kw}.",
] as const;

/** Questions a community member might ask about topic words (the `question` style). */
const QUESTIONS = [
  "What is the strongest evidence about {kw} so far?",
  "How would you weigh {kw} against {kw2}?",
  "What have you learned about {kw} in practice?",
  "Where does {kw} matter most, and why?",
  "Which mistakes with {kw} are easiest to avoid?",
  "What would change your mind about {kw}?",
  "How should beginners think about {kw} and {kw2}?",
  "Is {kw} overrated, or still underrated?",
] as const;

/** Words of the templates themselves: never picked as topic words. */
const TEMPLATE_WORDS = new Set(
  keywords([...CLAIMS, ...OPENERS, ...REPLIES, ...FOLLOW_UPS, ...QUESTIONS].join(" "), 500),
);

const FILLER = "and that is worth weighing carefully before anyone decides".split(" ");

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = vars[k.toLowerCase()] ?? "";
    return k[0] === k[0].toUpperCase() ? v.charAt(0).toUpperCase() + v.slice(1) : v;
  });
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Fit sentences into [min, max] characters: cut at a word when long, pad when short. */
export function fitLength(text: string, min: number, max: number): string {
  const lo = Math.max(0, Math.min(min, max));
  const hi = Math.max(1, Math.max(min, max));
  let out = text.replace(/\s+/g, " ").trim();
  if (out.length > hi) {
    out = cutAtWord(out, hi - 1);
    if (!/[.!?]$/.test(out)) out = `${out}.`;
  }
  let i = 0;
  while (out.length < lo) {
    const word = FILLER[i++ % FILLER.length];
    if (out.length + 1 + word.length > hi) {
      out = (out + " " + "x".repeat(lo)).slice(0, lo);
      break;
    }
    out = out ? `${out} ${word}` : word;
  }
  return out;
}

/** How a topic reads inside a sentence: questions are quoted, statements run on. */
function topicPhrase(topic: string): string {
  const t = topic.replace(/\s+/g, " ").trim();
  if (!t) return "this question";
  const short = t.length > 70 ? `${cutAtWord(t, 66)}…` : t;
  if (/\?$/.test(t) || /^(should|can|could|is|are|does|do|will|would|must|has|have)\b/i.test(t)) {
    return `the question "${short.replace(/^["']|["']$/g, "")}"`;
  }
  // Keep acronyms and names ("AI", "Rust") capitalized; lower an ordinary first word.
  return /^[A-Z][a-z]/.test(short) ? short.charAt(0).toLowerCase() + short.slice(1) : short;
}

/** Options of {@link composeText}. */
export interface ComposeInput {
  topic: string;
  /** Words the speaker cares about (interests), mixed into the topic's words. */
  interests?: string;
  lastPoint?: string;
  minChars: number;
  maxChars: number;
  seed: number;
  /**
   * `argue`: a debate turn (answers `lastPoint`); `statement`: plain claims;
   * `question`: one question about the topic's words, ending in a question mark.
   */
  style?: "argue" | "statement" | "question";
}

/** One question about the topic's words that fits in `max` characters. */
function composeQuestion(pool: string[], rng: () => number, max: number): string {
  for (let attempt = 0; attempt < 8; attempt++) {
    const kw = pick(rng, pool);
    const others = pool.filter((w) => w !== kw);
    const kw2 = others.length > 0 ? pick(rng, others) : "the alternatives";
    const text = capitalize(fill(pick(rng, QUESTIONS), { kw, kw2 }));
    if (text.length <= max) return text;
  }
  const short = `Thoughts on ${pool[0]}?`;
  return short.length <= max ? short : `${cutAtWord(pool[0], Math.max(1, max - 1))}?`;
}

/**
 * An on-topic paragraph of `minChars`–`maxChars` characters.
 *
 * @example
 * ```ts
 * composeText({ topic: "remote work", minChars: 100, maxChars: 200, seed: 1 });
 * ```
 */
export function composeText(input: ComposeInput): string {
  const rng = seededRandom(input.seed);
  const own = (text: string, n: number) => keywords(text, n).filter((w) => !TEMPLATE_WORDS.has(w));
  const topicWords = own(input.topic, 12);
  const pool = [...topicWords, ...own(input.interests ?? "", 4)];
  if (pool.length === 0) pool.push("the details");
  const echoWords = own(input.lastPoint ?? "", 12).filter((w) => w.length >= 4);
  const echo = echoWords.length > 0 ? pick(rng, echoWords) : "";
  if (input.style === "question") return composeQuestion(pool, rng, input.maxChars);
  const vars = () => ({ topic: topicPhrase(input.topic), kw: pick(rng, pool), echo });
  const claim = () => fill(pick(rng, CLAIMS), vars());
  const sentences: string[] = [];
  if (input.style === "statement") {
    sentences.push(`${capitalize(claim())}.`);
  } else if (input.lastPoint && echo) {
    sentences.push(fill(pick(rng, REPLIES), { ...vars(), claim: claim() }));
  } else {
    sentences.push(fill(pick(rng, OPENERS), { ...vars(), claim: claim() }));
  }
  let text = sentences.join(" ");
  for (let guard = 0; text.length < input.minChars && guard < 12; guard++) {
    const next = input.style === "statement"
      ? `${capitalize(claim())}.`
      : fill(pick(rng, FOLLOW_UPS), vars());
    if (!sentences.includes(next)) sentences.push(next);
    text = sentences.join(" ");
  }
  return fitLength(text, input.minChars, input.maxChars);
}

/** An enumeration hint such as `"user|opponent|tie"`. */
function enumOptions(hint: string): string[] | null {
  if (!/^[\w-]+(\s*\|\s*[\w-]+)+$/.test(hint.trim())) return null;
  return hint.split("|").map((s) => s.trim());
}

/** True when a string hint asks for a question ("a question …", "… question mark …"). */
function asksForQuestion(hint: string): boolean {
  return /^\s*(?:a|one)\s+(?:short\s+)?question\b|question mark/i.test(hint);
}

/**
 * Fill a JSON example: enumerations pick one option, strings become on-topic text
 * within the bounds their hint names (a question when the hint asks for one), arrays
 * get two or three items shaped like their first element, numbers, booleans and null
 * stay.
 *
 * @example
 * ```ts
 * declare const reading: Parameters<typeof fillTemplate>[1];
 * fillTemplate({ winner: "user|opponent|tie", conclusion: "at most 100 characters" }, reading);
 * ```
 */
export function fillTemplate(template: unknown, reading: PromptReading, path = ""): unknown {
  const seed = reading.seed ^ hashPath(path);
  if (typeof template === "string") {
    const options = enumOptions(template);
    if (options) return pick(seededRandom(seed), options);
    const bounds = readBounds(template) ?? { min: 40, max: 140 };
    return composeText({
      topic: reading.topic,
      interests: reading.interests,
      minChars: Math.min(bounds.min || 20, bounds.max),
      maxChars: bounds.max,
      seed,
      style: asksForQuestion(template) ? "question" : "statement",
    });
  }
  if (Array.isArray(template)) {
    const shape = template[0] ?? "one short point";
    const count = 2 + Math.floor(seededRandom(seed)() * 2);
    return Array.from({ length: count }, (_, i) => fillTemplate(shape, reading, `${path}[${i}]`));
  }
  if (template && typeof template === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(template)) {
      out[k] = k === "reason" && typeof v === "string"
        ? undefined // composed below, once the action beside it is known
        : fillTemplate(v, reading, `${path}.${k}`);
    }
    if ("reason" in out) out.reason = composeReason(out.action, reading, seed);
    return out;
  }
  return template;
}

/** Why the stand-in chose to ask: short, grammatical, the topic word quoted. */
const ASK_REASONS = [
  "Recent questions leave “{kw}” unexplored, so a new question could start that discussion.",
  "A fresh question about “{kw}” seems more useful than adding to the existing threads.",
  "None of the recent threads asks about “{kw}” yet.",
] as const;

/** Why the stand-in chose to reply (or chose this question). */
const REPLY_REASONS = [
  "This discussion is active, and a reply about “{kw}” can add something new.",
  "This thread has the most activity, and “{kw}” is something I can speak to.",
  "The question about “{kw}” is still open, so a careful reply can help.",
] as const;

/**
 * A plan's `reason`: one short template sentence matching the `action` beside it (a
 * reply when there is none), never a string of loose topic words.
 *
 * @example
 * ```ts
 * declare const reading: Parameters<typeof composeReason>[1];
 * composeReason("ask_new", reading, 1); // e.g. "None of the recent threads asks about “tea” yet."
 * ```
 */
export function composeReason(action: unknown, reading: PromptReading, seed: number): string {
  const rng = seededRandom(seed);
  const words = keywords(`${reading.topic} ${reading.interests ?? ""}`, 12)
    .filter((w) => !TEMPLATE_WORDS.has(w) && w.length >= 4);
  const kw = words.length > 0 ? pick(rng, words) : "this topic";
  return fill(pick(rng, action === "ask_new" ? ASK_REASONS : REPLY_REASONS), { kw });
}

function hashPath(path: string): number {
  let h = 7;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x5bd1e995);
  return h >>> 0;
}

/**
 * The stand-in's whole answer to a reading: JSON text when JSON is asked for, else a paragraph.
 *
 * @example
 * ```ts
 * import type { ChatMessage } from "@/lib/llm/types.ts";
 * import { readPrompt } from "@/lib/llm/standin/read_prompt.ts";
 * declare const messages: ChatMessage[];
 * const text = composeAnswer(readPrompt(messages, false));
 * ```
 */
export function composeAnswer(reading: PromptReading): string {
  if (reading.wantsJson) {
    const value = reading.template ? fillTemplate(reading.template, reading) : {
      answer: composeText({
        topic: reading.topic,
        interests: reading.interests,
        minChars: 40,
        maxChars: 200,
        seed: reading.seed,
        style: "statement",
      }),
    };
    return JSON.stringify(value);
  }
  return composeText({
    topic: reading.topic,
    interests: reading.interests,
    lastPoint: reading.lastPoint,
    minChars: reading.minChars,
    maxChars: reading.maxChars,
    seed: reading.seed,
  });
}

/**
 * What the stand-in model reads from a chat request: the topic, the length it is asked
 * for, who it speaks as, the point it answers, and the JSON shape it must fill.
 *
 * Prompt conventions it understands (Parley's own prompts follow them; any prompt works,
 * with less on-topic results):
 * - a line `Topic: …`;
 * - a length such as "between 100 and 200 characters", "100–200 characters" or
 *   "at most 100 characters";
 * - "You are <Name>, …" and a line `Interests: …`;
 * - a transcript: a line starting `Transcript`, then lines `<Name>: <text>` up to a blank line;
 * - for JSON answers, an example object in the prompt whose values are hints
 *   (`"user|opponent|tie"` picks one; "at most N characters" bounds a string).
 *
 * @module
 */
import type { ChatMessage } from "../types.ts";

/** What a request asks for. */
export interface PromptReading {
  topic: string;
  /** Length bounds in characters for a text answer. */
  minChars: number;
  maxChars: number;
  /** The speaker the model is asked to be, when named. */
  speaker?: string;
  /** The speaker's interests (an `Interests:` line), mixed into the topic's words. */
  interests: string;
  /** The latest transcript line by someone else: the point to answer. */
  lastPoint?: string;
  /** True when JSON is asked for (response_format or the prompt says so). */
  wantsJson: boolean;
  /** The example object to fill, when the prompt carries one. */
  template?: Record<string, unknown>;
  /** Stable seed: the same prompt gives the same answer. */
  seed: number;
}

/** Default bounds when the prompt names none. */
export const DEFAULT_BOUNDS = { min: 120, max: 280 } as const;

/** 32-bit FNV-1a: a stable seed from text. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Length bounds named in `text`, or null.
 *
 * @example
 * ```ts
 * readBounds("Write 100 to 200 characters"); // { min: 100, max: 200 }
 * readBounds("at most 100 characters"); // { min: 0, max: 100 }
 * ```
 */
export function readBounds(text: string): { min: number; max: number } | null {
  const range = /(\d{1,5})\s*(?:-|–|—|to|and)\s*(\d{1,5})\s*(?:characters|chars)/i.exec(text);
  if (range) {
    const a = Number(range[1]);
    const b = Number(range[2]);
    return { min: Math.min(a, b), max: Math.max(a, b) };
  }
  const most =
    /(?:at most|no more than|up to|≤|<=|max(?:imum)?)\s*(\d{1,5})\s*(?:characters|chars)/i
      .exec(text);
  if (most) return { min: 0, max: Number(most[1]) };
  return null;
}

/**
 * The first balanced `{…}` span from `start` that parses as a JSON object, with its end.
 * Strings are skipped so braces inside them do not count.
 */
function objectAt(
  text: string,
  start: number,
): { value: Record<string, unknown>; end: number } | null {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length && i - start < 20_000; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      try {
        const value = JSON.parse(text.slice(start, i + 1));
        if (value && typeof value === "object" && !Array.isArray(value)) return { value, end: i };
      } catch {
        // Not JSON (e.g. prose in braces).
      }
      return null;
    }
  }
  return null;
}

/** The last JSON object example in `text` with at least one key. */
export function findTemplate(text: string): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined;
  for (let i = text.indexOf("{"); i !== -1; i = text.indexOf("{", i + 1)) {
    const hit = objectAt(text, i);
    if (hit && Object.keys(hit.value).length > 0) {
      found = hit.value;
      i = hit.end;
    }
  }
  return found;
}

/** The `<Name>: <text>` lines of the last transcript section in `text`. */
export function transcriptLines(text: string): { name: string; text: string }[] {
  const lines = text.split("\n");
  let start = -1;
  for (let i = 0; i < lines.length; i++) if (/^\s*Transcript\b/i.test(lines[i])) start = i;
  if (start === -1) return [];
  const out: { name: string; text: string }[] = [];
  for (let i = start + 1; i < lines.length && lines[i].trim() !== ""; i++) {
    const m = /^([^:]{1,80}):\s+(.+)$/.exec(lines[i]);
    if (m) out.push({ name: m[1].trim(), text: m[2].trim() });
  }
  return out;
}

/**
 * Read a chat request.
 *
 * @example
 * ```ts
 * const r = readPrompt([{ role: "user", content: "Topic: tabs vs spaces\nWrite 100 to 200 characters." }], false);
 * r.topic; // "tabs vs spaces"
 * ```
 */
export function readPrompt(messages: ChatMessage[], jsonRequested: boolean): PromptReading {
  const all = messages.map((m) => m.content).join("\n\n");
  const lastUser = [...messages].reverse().find((m) => m.role === "user")?.content ?? all;
  const topicLine = /^\s*Topic:\s*(.+)$/im.exec(all)?.[1]?.trim();
  const topic = topicLine || lastUser.replace(/\s+/g, " ").trim().slice(0, 120) || "this question";
  const speaker = /\bYou are ([^,.\n]{1,60})[,.\n]/.exec(all)?.[1]?.trim();
  const interests = /^\s*Interests:\s*(.+)$/im.exec(all)?.[1] ?? "";
  const transcript = transcriptLines(all).filter((l) => !speaker || l.name !== speaker);
  const wantsJson = jsonRequested || /\bJSON\b/.test(lastUser);
  const bounds = wantsJson ? null : readBounds(lastUser) ?? readBounds(all);
  return {
    topic,
    minChars: bounds?.min ?? DEFAULT_BOUNDS.min,
    maxChars: bounds?.max ?? DEFAULT_BOUNDS.max,
    speaker,
    interests,
    lastPoint: transcript.at(-1)?.text,
    wantsJson,
    template: wantsJson ? findTemplate(all) : undefined,
    seed: hashText(all),
  };
}

/**
 * Opponent personas: AI debaters with a name, avatar, title, personality and stance.
 * The topic chooses one: each persona lists the subjects it is drawn to, the best match
 * wins, and a topic that matches none gets a stable pick from its own text.
 *
 * @module
 */
import { initialsAvatar } from "./avatar.ts";

/** An AI opponent. */
export interface Persona {
  id: string;
  name: string;
  /** Image URL (a self-contained `data:` SVG). */
  avatar: string;
  /** One-line role shown next to the name. */
  title: string;
  /** How it argues. */
  personality: string;
  /** The position it tends to take. */
  stance: string;
  /** A short public description (the `bio` of a stored debate's opponent). */
  bio: string;
  /** Subjects that draw it to a topic (lowercase word stems). */
  drawnTo: string[];
}

function persona(p: Omit<Persona, "avatar">, color: string): Persona {
  return { ...p, avatar: initialsAvatar(p.name, color) };
}

/** Every persona, in a fixed order. */
export const PERSONAS: readonly Persona[] = [
  persona({
    id: "skeptic",
    name: "Vera Quell",
    title: "Evidence-first skeptic",
    personality: "Calm, precise and hard to impress; asks for data and points out weak links.",
    stance: "Doubts bold claims until the evidence is in; favours caution and measurement.",
    bio: "A retired lab scientist who has seen many sure things fail replication.",
    drawnTo: [
      "science",
      "health",
      "medic",
      "diet",
      "study",
      "research",
      "evidence",
      "vaccin",
      "nutrition",
      "psycholog",
      "crypto",
      "hype",
      "quantum",
    ],
  }, "#0f766e"),
  persona({
    id: "futurist",
    name: "Kai Renner",
    title: "Technology optimist",
    personality: "Energetic and inventive; argues from trends, prototypes and what could be.",
    stance: "Believes new technology mostly widens options and should be adopted early.",
    bio: "A startup engineer who has shipped software on three continents.",
    drawnTo: [
      "ai",
      "artificial",
      "robot",
      "tech",
      "software",
      "program",
      "code",
      "internet",
      "space",
      "automat",
      "future",
      "digital",
      "electric",
      "self-driving",
      "innovation",
    ],
  }, "#7c3aed"),
  persona({
    id: "ethicist",
    name: "Amara Osei",
    title: "Moral philosopher",
    personality: "Patient and principled; weighs rights, fairness and who bears the costs.",
    stance: "Puts people's dignity and fairness ahead of efficiency and convenience.",
    bio: "Teaches applied ethics and chairs a hospital ethics board.",
    drawnTo: [
      "ethic",
      "moral",
      "right",
      "justice",
      "fair",
      "privacy",
      "freedom",
      "animal",
      "law",
      "punish",
      "equal",
      "religio",
      "death",
      "surveil",
    ],
  }, "#b45309"),
  persona({
    id: "economist",
    name: "Marcus Hale",
    title: "Pragmatic economist",
    personality: "Dry and numerate; thinks in incentives, trade-offs and unintended effects.",
    stance: "Prefers market-tested, cost-aware policies over good intentions.",
    bio: "Spent twenty years advising city budgets and small businesses.",
    drawnTo: [
      "econom",
      "money",
      "tax",
      "price",
      "market",
      "job",
      "work",
      "wage",
      "income",
      "business",
      "trade",
      "housing",
      "rent",
      "inflation",
      "remote",
      "salary",
    ],
  }, "#1d4ed8"),
  persona({
    id: "ecologist",
    name: "Lena Marsh",
    title: "Field ecologist",
    personality: "Grounded and vivid; argues from places, species and long time spans.",
    stance: "Judges every choice by its long-term effect on the living world.",
    bio: "Has counted birds and measured rivers on four continents.",
    drawnTo: [
      "climate",
      "environment",
      "energy",
      "nuclear",
      "green",
      "car",
      "city",
      "cities",
      "meat",
      "vegan",
      "farm",
      "ocean",
      "forest",
      "plastic",
      "travel",
      "fly",
    ],
  }, "#15803d"),
  persona({
    id: "historian",
    name: "Tomas Varga",
    title: "Historian of ideas",
    personality: "Wry storyteller; finds the precedent behind every new argument.",
    stance: "Distrusts novelty for its own sake and looks for what history already showed.",
    bio: "Writes about how societies argued through earlier upheavals.",
    drawnTo: [
      "history",
      "tradition",
      "culture",
      "art",
      "music",
      "book",
      "read",
      "school",
      "educat",
      "language",
      "war",
      "politic",
      "democra",
      "vote",
    ],
  }, "#be123c"),
];

/** Stable 32-bit hash of text (FNV-1a). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** How strongly a topic draws a persona: the number of its subjects the topic mentions. */
export function topicScore(persona: Persona, topic: string): number {
  const words = topic.toLowerCase().match(/[\p{L}\p{N}-]+/gu) ?? [];
  let score = 0;
  for (const stem of persona.drawnTo) {
    if (
      words.some((w) => (stem.length <= 3 ? w === stem || w === `${stem}s` : w.startsWith(stem)))
    ) {
      score++;
    }
  }
  return score;
}

/**
 * The opponent for a topic: the best-matching persona; ties and unmatched topics are
 * settled by a hash of the topic, so the same topic always meets the same opponent.
 *
 * @example
 * ```ts
 * choosePersona("Should AI write production code?").id; // "futurist"
 * ```
 */
export function choosePersona(topic: string): Persona {
  const normalized = topic.trim().toLowerCase();
  const scored = PERSONAS.map((p) => ({ p, score: topicScore(p, normalized) }));
  const best = Math.max(...scored.map((s) => s.score));
  const candidates = scored.filter((s) => s.score === best).map((s) => s.p);
  return candidates[hash(normalized) % candidates.length];
}

/** A persona by id, or undefined. */
export function personaById(id: string): Persona | undefined {
  return PERSONAS.find((p) => p.id === id);
}

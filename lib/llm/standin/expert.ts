/**
 * The stand-in model's AI-expert voice: when a prompt seats it on Parley's AI expert
 * panel ("You are <Name>, <Title>. Your voice: …"), it writes a short message from that
 * expert's field about the question's own words — or, asked to reply to someone, takes
 * up a word of their point. Grammatical templates, deterministic per prompt; the UI
 * labels the result as the expert's stand-in text.
 *
 * @module
 */
import { cutAtWord, keywords, seededRandom } from "./compose.ts";

/** Who the expert prompt seats the model as, and whom it answers. */
export interface ExpertReading {
  name: string;
  title: string;
  /** Name and words of the message to reply to, when it is a reply. */
  replyTo?: { name: string; text: string };
}

/**
 * The expert a prompt names, or null when the prompt is not an AI-expert prompt.
 *
 * @example
 * ```ts
 * readExpert("You are Omar Haddad, Security engineer. Your voice: skeptical. You sit on Parley's AI expert panel");
 * // { name: "Omar Haddad", title: "Security engineer" }
 * ```
 */
export function readExpert(text: string): ExpertReading | null {
  // The panel's prompts and a roundtable's statements (lib/roundtables/prompts.ts) seat an expert.
  if (!/AI expert panel|AI roundtable/.test(text)) return null;
  const m = /You are ([^,\n]{1,60}), ([^.\n]{1,80})\. Your voice:/.exec(text);
  if (!m) return null;
  const r = /Reply to ([^,\n]{1,80}), who wrote: "([^"]*)/.exec(text);
  return {
    name: m[1].trim(),
    title: m[2].trim(),
    ...(r ? { replyTo: { name: r[1].trim(), text: r[2] } } : {}),
  };
}

/** A field's angle: its claim about a topic word, and what it would do first. */
interface Lens {
  claim: readonly string[];
  practice: readonly string[];
}

const LENSES: [RegExp, Lens][] = [
  [/architect|software|developer/i, {
    claim: [
      "keep {kw} behind one clear boundary, so you can change it later without a rewrite",
      "the simplest design for {kw} that you can test beats a clever one you cannot",
    ],
    practice: ["sketch the two or three parts that touch {kw} and how data flows between them"],
  }],
  [/security/i, {
    claim: [
      "the first question about {kw} is what an attacker could do with it",
      "{kw} is only as safe as its weakest default, so check the defaults first",
    ],
    practice: ["list what could go wrong with {kw}, then close the most likely gap first"],
  }],
  [/data|statistic/i, {
    claim: [
      "you need a measurement of {kw} before and after, or you are only guessing",
      "most claims about {kw} mix up correlation and cause",
    ],
    practice: ["pick one number that tracks {kw} and write it down for a couple of weeks"],
  }],
  [/physician|doctor|medic/i, {
    claim: [
      "what good studies say about {kw} matters more than single stories",
      "the right answer on {kw} depends a lot on the person's own health",
    ],
    practice: [
      "talk it through with a clinician who knows your history before changing {kw}",
    ],
  }],
  [/econom/i, {
    claim: [
      "follow the incentives around {kw}: who pays, who gains, and who decides",
      "the hidden cost of {kw} is usually what you give up to get it",
    ],
    practice: ["compare the cost of {kw} with the next best use of the same money or time"],
  }],
  [/climate|energy|environment/i, {
    claim: [
      "{kw} has to be judged over decades, not over a single season",
      "the footprint of {kw} depends mostly on where its energy comes from",
    ],
    practice: ["look at the whole life cycle of {kw}, not only the part you can see"],
  }],
  [/design/i, {
    claim: [
      "watching one real person deal with {kw} teaches more than a long debate",
      "if {kw} needs an explanation, the design is not finished yet",
    ],
    practice: ["try a rough version of {kw} with two or three people and note where they stall"],
  }],
  [/histor/i, {
    claim: [
      "{kw} has been tried before, and the earlier attempts are instructive",
      "the story of {kw} is older and less tidy than it is usually told",
    ],
    practice: ["read how people handled {kw} a generation ago before assuming it is new"],
  }],
  [/philosoph|ethic/i, {
    claim: [
      "we should be clear about what we mean by {kw} before arguing about it",
      "the hard part of {kw} is not the facts but which values we put first",
    ],
    practice: ["state the strongest case against your own view of {kw}, then answer it"],
  }],
  [/teach|learning|educat/i, {
    claim: [
      "people learn {kw} best in small steps with quick feedback",
      "practice spread over days beats one long session on {kw}",
    ],
    practice: ["set a short daily exercise on {kw} and check what stuck a week later"],
  }],
  [/reliab|devops|operations|sre/i, {
    claim: [
      "plan for {kw} failing at the worst moment, because eventually it will",
      "what you cannot observe about {kw} you cannot fix in time",
    ],
    practice: ["add one alert on {kw} and rehearse what you would do when it fires"],
  }],
  [/law|legal/i, {
    claim: [
      "the rules on {kw} differ by country, so start from where you are",
      "what a contract says about {kw} matters more than what people assume",
    ],
    practice: ["write down what you agreed about {kw} and check it against the local rules"],
  }],
  [/psycholog/i, {
    claim: [
      "how people feel about {kw} shapes what they actually do",
      "habits around {kw} change through small cues more than through willpower",
    ],
    practice: ["change one small cue around {kw} and see how behaviour follows"],
  }],
];

const GENERIC: Lens = {
  claim: ["the details of {kw} decide the answer more than general rules do"],
  practice: ["try the smallest change to {kw} first and see what it does"],
};

const OPENERS = [
  "As a {title}, I would start here: {claim}.",
  "From where I sit as a {title}, {claim}.",
  "Speaking as a {title}, {claim}.",
] as const;

const REPLIES = [
  "{Name} is right that {echo} matters. As a {title}, I would add that {claim}.",
  "I would push back a little on {Name}'s point about {echo}: as a {title}, I think {claim}.",
  "Building on what {Name} said about {echo}, {claim}.",
] as const;

const PRACTICE = [
  "In practice, {practice}.",
  "A concrete first step: {practice}.",
] as const;

const CAVEATS = [
  "I may be wrong about the details of {kw2} in your situation, so treat this as a starting point.",
  "The honest caveat: the right call on {kw2} varies from case to case.",
  "If you can share more about {kw2}, the panel can be more specific.",
] as const;

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = vars[k.toLowerCase()] ?? "";
    return k[0] === k[0].toUpperCase() ? v.charAt(0).toUpperCase() + v.slice(1) : v;
  });
}

/** Verbs and adverbs a question leads with: poor subjects for a field's claim. */
const NOT_SUBJECTS = new Set(
  ("store make get use keep learn start find need want choose build stop avoid handle " +
    "improve write run pick deal know think feel become tell explain understand work")
    .split(" "),
);

/** The topic's words that can stand as a sentence's subject (nouns, mostly). */
function subjects(topic: string): string[] {
  return keywords(topic, 12).filter((w) => !NOT_SUBJECTS.has(w) && !/ly$/.test(w));
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * An expert's message about `topic`, in `maxChars` at most: a claim from the expert's
 * field about one of the topic's words (or an answer to `replyTo`), a practical step, and
 * an honest caveat.
 *
 * @example
 * ```ts
 * composeExpert(
 *   { name: "Omar Haddad", title: "Security engineer" },
 *   "How do I store passwords safely?",
 *   { seed: 1, minChars: 200, maxChars: 600 },
 * );
 * ```
 */
export function composeExpert(
  expert: ExpertReading,
  topic: string,
  opts: { seed: number; minChars: number; maxChars: number },
): string {
  const rng = seededRandom(opts.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)];
  const words = subjects(topic).slice(0, 8);
  const kw = words.length > 0 ? pick(words) : "this question";
  const others = words.filter((w) => w !== kw);
  const kw2 = others.length > 0 ? pick(others) : kw;
  const lens = LENSES.find(([re]) => re.test(expert.title))?.[1] ?? GENERIC;
  const title = expert.title.charAt(0).toLowerCase() + expert.title.slice(1);
  const echoWords = keywords(expert.replyTo?.text ?? "", 10).filter((w) => w.length >= 4);
  const vars = {
    kw,
    kw2,
    title,
    name: expert.replyTo?.name ?? "",
    echo: echoWords.length > 0 ? `“${pick(echoWords)}”` : "this",
  };
  const claim = fill(pick(lens.claim), vars);
  const first = expert.replyTo
    ? fill(pick(REPLIES), { ...vars, claim })
    : fill(pick(OPENERS), { ...vars, claim });
  const sentences = [
    cap(first),
    fill(pick(PRACTICE), { ...vars, practice: fill(pick(lens.practice), vars) }),
    fill(pick(CAVEATS), vars),
  ];
  // Whole sentences only, as many as fit; never padded with filler.
  let out = "";
  for (const s of sentences) {
    const next = out ? `${out} ${s}` : s;
    if (next.length > opts.maxChars) break;
    out = next;
  }
  return out || `${cutAtWord(first, Math.max(1, opts.maxChars - 1))}.`;
}

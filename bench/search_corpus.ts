/**
 * The search bench's corpus: a deterministic generator of realistic questions (no files, no
 * network), so every engine and every tree indexes exactly the same text and the main
 * process can count what each query should find.
 *
 * Vocabulary: ~750 technical nouns, ~270 verbs and ~170 adjectives, inflected (plurals, -s,
 * -ing, -ed, -ly) into ~2,600 distinct words, ranked in a seeded random order and drawn by Zipf's
 * law (the r-th word with probability ∝ 1/r), mixed with English function words ("the",
 * "how", "to": 30 % of a title, 40 % of a description), as real questions are. Titles have
 * 5–12 words, descriptions 30–120, tags 1–3 of 200 (Zipf too). One question in 50 mentions
 * one of {@link RARE_WORDS} (50 words no other text uses), so a rare-word query has ~40
 * answers per 100,000 questions.
 *
 * @module
 */

/** A question's text. */
export interface CorpusText {
  title: string;
  description: string;
  tags: string[];
}

/** One of the bench's five query kinds, the text sent and what it means. */
export interface CorpusQuery {
  kind: "common" | "rare" | "two words" | "typo" | "prefix";
  q: string;
  /** What a person typing `q` looks for (printed beside the results). */
  intent: string;
}

const NOUNS = `account address algorithm answer application approach argument array assignment
attempt attribute average backend balance bandwidth base batch behavior benchmark binary bit
block border bottleneck boundary branch browser bucket buffer bug build bundle button byte cache
calendar callback capacity category certificate change channel character chart checksum choice
chunk class client closure cluster code collection column command comment commit comparison
compiler component compression computer concurrency condition config configuration conflict
connection consistency console constant constraint consumer container content context contract
controller conversion cookie copy core cost counter coverage crash credential customer cursor
cycle daemon dashboard data database dataset date deadline deadlock debugger decision decorator
definition delay deletion dependency deployment descriptor design detail developer device
dictionary difference dimension directory disk distance distribution division document domain
download driver duplicate duration edge editor effect element email encoder encoding encryption
endpoint engine entity entry enum environment error event example exception execution executor
experiment expression extension factor failure feature feedback field file folder font form
fragment frame framework frequency function gap gateway generator goal graph grid group guide
handler hardware hash header heap height history hook host icon idea identifier image increment
information inheritance injection input insertion installation instance integer integration
interaction interface internet interval invoice issue item iterator job kernel key keyword label
language latency layer layout length level library lifecycle line link listener literal loader
locale location lock logger login machine maintenance manager mapping margin matrix measurement
memory message metadata method metric middleware migration mistake mode model module moment
monitor mutex namespace network node notification number object offset operation operator
optimization option origin output overflow overhead owner package packet page panel parameter
parent parser part partition password path pattern payload performance period permission phone
picture pipeline pixel plan platform plugin point pointer policy pool port position preference
prefix price priority problem processor product program progress project promise property
protocol provider proxy question queue range ratio reason record recursion reference region
registry relation replacement replica repository requirement resource response result revision
risk role router row rule runtime sample scenario schema scope screen script section sector
security selection selector sequence server service session setting shape shard shell signal
size snapshot socket solution source space spreadsheet stack standard state statement status
step storage strategy string structure style subject subscription success suffix summary surface
symbol syntax system table tag target task team technique template tenant terminal text thread
threshold throughput ticket time timeout timer timestamp title token tool topic total trace
traffic transaction transition translation tree tuple type unit usage user utility validation
validator value variable variant vector version video view visibility volume warning webhook
website weight widget width window word worker workflow workload wrapper zone abstraction accessibility adapter aggregate alert alias allocation
allocator analytics annotation anomaly archive artifact assertion audit authorization autocomplete
backoff backup badge baseline bitmap blob bootstrap breakpoint broker bytecode canvas carousel
certificate checkout checkpoint cipher classpath clipboard codec collision compatibility
compilation conditional connector constructor coordinate counterpart cronjob
dataframe deduplication delimiter dependency deprecation diff digest dispatcher dropdown
eviction exporter fallback fetcher filesystem firewall fixture formatter gauge getter glob
granularity handshake heuristic histogram hostname hotfix hypervisor indexer initializer
inspector installer interceptor interpreter invariant isolation keystore lambda linker linter
listener lockfile lookup manifest marshaller memtable microservice minifier mirror mixin modal
multiplexer mutation nonce observer orchestrator ordering outage overlay paginator pagination
permission persistence placeholder poller polyfill predicate preprocessor primitive profiler
projection prompt propagation publisher quota reader reconciler reducer refactoring regex
renderer replication reporter resolver retention reverse rollout sandbox scaffold scheduler
scheduling scraper semaphore serializer setter sidebar sidecar signature singleton sitemap
slider spinner splitter subprocess subscriber supervisor tablet telemetry tokenizer toolbar
tooltip topology transpiler traversal tunnel typo upgrade uptime viewport watcher whitelist
writer`;

const VERBS = `access add allocate append apply assign authenticate break calculate call cancel
capture check clean clear click clone close collect combine compare compile compress compute
configure connect contain convert count create debug declare decode decrypt define delete deploy
deserialize destroy detect disable dispatch display drop dump emit enable encode encrypt ensure
execute exit expand expect expire export expose extend extract fail fetch fill filter find fix
flush fork format forward freeze generate handle hang hide highlight ignore implement import
include increase inject insert install invalidate invoke iterate join keep kill launch leak limit
list listen load log loop maintain manage match measure merge migrate mock modify mount move
multiply mutate navigate normalize notify observe open optimize order overwrite parse pass paste
patch pause perform persist ping pipe poll populate post prefetch prepare prevent print process
produce profile publish pull push query raise read rebuild receive reconnect redirect reduce
refactor refresh register reject release reload remove rename render repeat replace reply report
request require reset resize resolve respond restart restore retrieve retry return reuse revert
rollback rotate route run save scale scan schedule scroll search select send serialize serve set
share shift show shutdown sign simulate skip sleep sort spawn split start stop store stream
submit subscribe support suspend swap switch sync test throttle throw toggle track transfer
transform translate trigger trim truncate unlock unmount unpack update upgrade upload use
validate verify wait wake watch wrap write`;

const ADJECTIVES = `abstract active async asynchronous atomic automatic available basic broken
circular common complex concurrent consistent correct critical current custom dangling deep
deprecated detached different direct dirty distributed dynamic empty entire equal exact existing
expensive experimental explicit external extra fast final fixed flat full generic global hidden
huge identical immutable implicit inactive incorrect incremental infinite initial inner internal
invalid large lazy legacy lightweight linear local logical long main manual maximum minimal
minimum missing modern multiple mutable native negative nested new normal null numeric old
optional original outer parallel partial persistent physical positive possible previous primary
private protected public random raw reactive readonly recent recursive redundant relative
reliable remote required responsive reusable safe scalable secondary secure sensitive separate
sequential serverless shallow shared short similar simple single slow small sparse specific
stable stale static strict strong successful synchronous temporary transient typed unexpected
unique unknown unused upstream valid verbose virtual visible volatile weak wrong`;

/** Words no generated text uses except where a question mentions one on purpose. */
export const RARE_WORDS: readonly string[] = `backpressure idempotency memoization
monomorphization tombstoning debouncing hydration linearizability quiescence hysteresis coroutine
trampoline econnreset eaddrinuse sigsegv enoent epoll kqueue mmap fsync inode futex seccomp cgroup
ebpf wasi protobuf flatbuffers msgpack zstd brotli hyperloglog skiplist quadtree cuckoo xorshift
murmurhash siphash bcrypt scrypt webauthn passkey kerberos haproxy kubectl terraform systemd
valgrind flamegraph goroutine`.split(/\s+/);

/** Function words, as frequent in real questions as in any English text. */
const FUNCTION_WORDS = `the a to is in how i my with when this it on for and not but what why can
do does from after before of an be are was that there which or as at by if so no all any some
each only then than into about should would could we our you your me have has been while without
between same other more most also just still instead because where`.split(/\s+/);

const NO_PLURAL = new Set(
  "data metadata hardware feedback information traffic throughput concurrency security memory"
    .split(" "),
);
const PAST = new Map(Object.entries({
  build: "built",
  break: "broken",
  find: "found",
  freeze: "frozen",
  hang: "hung",
  keep: "kept",
  read: "read",
  run: "ran",
  send: "sent",
  set: "set",
  show: "shown",
  split: "split",
  throw: "thrown",
  wake: "woken",
  write: "written",
}));
/** Verbs that double their last consonant before -ing/-ed (stop → stopping). */
const DOUBLES = new Set(
  "commit debug drop emit log plan run scan set ship skip stop submit swap trim wrap".split(" "),
);

function plural(w: string): string {
  if (/(s|x|z|ch|sh)$/.test(w)) return `${w}es`;
  if (/[^aeiou]y$/.test(w)) return `${w.slice(0, -1)}ies`;
  return `${w}s`;
}

function verbForms(v: string): string[] {
  const stem = DOUBLES.has(v) ? v + v.at(-1) : /[^e]e$/.test(v) ? v.slice(0, -1) : v;
  const past = PAST.get(v) ??
    (DOUBLES.has(v)
      ? `${stem}ed`
      : v.endsWith("e")
      ? `${v}d`
      : /[^aeiou]y$/.test(v)
      ? `${v.slice(0, -1)}ied`
      : `${v}ed`);
  return [v, plural(v), `${stem}ing`, past];
}

/**
 * The id of corpus question `i`: `q-seed-` and 11 digits, as long as a real question's
 * (`q-` + 16 characters, lib/ids.ts), so index keys weigh what they will in production.
 *
 * @example
 * ```ts
 * corpusId(42); // "q-seed-00000000042"
 * ```
 */
export function corpusId(i: number): string {
  return `q-seed-${String(i).padStart(11, "0")}`;
}

/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same numbers anywhere. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = 0x5eed;

function shuffled<T>(items: T[], seed: number): T[] {
  const rand = prng(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A Zipf sampler over `n` ranks (exponent 1): returns a rank, 0 the most frequent. */
function zipf(n: number): (r: number) => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / (i + 1);
  for (let i = 0; i < n; i++) cdf[i] /= sum;
  return (r) => {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const split = (s: string) => s.trim().split(/\s+/);
const functionWords = new Set(FUNCTION_WORDS);
/** Every vocabulary word, the root (dictionary form) it inflects. */
const rootOf = new Map<string, string>();
for (const n of split(NOUNS)) {
  for (const w of NO_PLURAL.has(n) ? [n] : [n, plural(n)]) rootOf.set(w, rootOf.get(w) ?? n);
}
for (const v of split(VERBS)) for (const w of verbForms(v)) rootOf.set(w, rootOf.get(w) ?? v);
/** Adjectives whose -ly adverb is not a word. */
const NO_ADVERB = new Set(
  "null async extra raw old fast long upstream serverless readonly lightweight legacy main"
    .split(" "),
);

function adverb(a: string): string | null {
  if (NO_ADVERB.has(a) || /(ed|en|y)$/.test(a)) return null;
  if (a.endsWith("ic")) return `${a}ally`;
  if (a.endsWith("le")) return `${a.slice(0, -1)}y`;
  return `${a}ly`;
}

for (const a of split(ADJECTIVES)) {
  for (const w of [a, adverb(a)]) if (w) rootOf.set(w, rootOf.get(w) ?? a);
}
for (const w of [...rootOf.keys()]) if (functionWords.has(w)) rootOf.delete(w);
if (RARE_WORDS.some((w) => rootOf.has(w))) {
  throw new Error("corpus: a rare word is in the vocabulary");
}

/** The vocabulary in Zipf rank order (index 0 is the most frequent word). */
export const VOCABULARY: readonly string[] = shuffled([...rootOf.keys()].sort(), SEED);
/** The 200 tags, most used first. */
export const TAGS: readonly string[] = shuffled(split(NOUNS), SEED + 1).slice(0, 200);

const pickWord = zipf(VOCABULARY.length);
const pickTag = zipf(TAGS.length);

function sentence(rand: () => number, n: number, functionShare: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      rand() < functionShare
        ? FUNCTION_WORDS[Math.floor(rand() * FUNCTION_WORDS.length)]
        : VOCABULARY[pickWord(rand())],
    );
  }
  return out;
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Question `i` of the corpus (the same text for the same `i`, in any order, in any process).
 *
 * @example
 * ```ts
 * const { title, description, tags } = corpusQuestion(0);
 * ```
 */
export function corpusQuestion(i: number): CorpusText {
  const rand = prng(SEED ^ Math.imul(i + 1, 0x9e3779b1));
  const title = sentence(rand, 5 + Math.floor(rand() * 8), 0.3);
  const words = sentence(rand, 30 + Math.floor(rand() * 91), 0.4);
  if (rand() < 0.02) {
    words.splice(Math.floor(rand() * words.length), 0, RARE_WORDS[Math.floor(rand() * 50)]);
  }
  const sentences: string[] = [];
  for (let at = 0; at < words.length;) {
    const n = 8 + Math.floor(rand() * 9);
    sentences.push(capitalized(words.slice(at, at + n).join(" ")) + ".");
    at += n;
  }
  const tags = new Set<string>();
  const tagCount = 1 + Math.floor(rand() * 3);
  while (tags.size < tagCount) tags.add(TAGS[pickTag(rand())]);
  return {
    title: capitalized(title.join(" ")) + (rand() < 0.5 ? "?" : ""),
    description: sentences.join(" "),
    tags: [...tags],
  };
}

const letters = (w: string) => [...w].length;

/** The most frequent vocabulary word from the fifth on that passes `test`. */
function mostFrequent(test: (w: string) => boolean): string {
  const w = VOCABULARY.slice(4).find(test);
  if (!w) throw new Error("corpus: no vocabulary word fits a query");
  return w;
}

/** `w` with its 3rd and 4th letters swapped (a typical typing slip). */
const swapped = (w: string) => w.slice(0, 2) + w[3] + w[2] + w.slice(4);
const common = mostFrequent((w) => letters(w) >= 5);
const others = (w: string, ...not: string[]) =>
  letters(w) >= 5 && not.every((x) => rootOf.get(x) !== rootOf.get(w));
const second = VOCABULARY.slice(10).find((w) => others(w, common))!;
const third = VOCABULARY.slice(30).find((w) => others(w, common, second))!;
const typoTarget = mostFrequent((w) =>
  letters(w) >= 7 && letters(w) <= 9 && others(w, common) && !rootOf.has(swapped(w))
);
const typo = swapped(typoTarget);
const prefixTarget = mostFrequent((w) =>
  letters(w) >= 7 && others(w, common, typoTarget) && !rootOf.has(w.slice(0, 4))
);

/**
 * The five queries, chosen from the vocabulary's ranks: the fifth most frequent word (of five
 * letters or more; in ~3/4 of the questions), a rare word, two mid-frequency words, the next
 * frequent 7–9 letter word with its 3rd and 4th letters swapped, and the first four letters
 * of the next frequent long word (the last word of a query still being typed).
 *
 * @example
 * ```ts
 * CORPUS_QUERIES.map((q) => q.q); // e.g. ["cache", "backpressure", …]
 * ```
 */
export const CORPUS_QUERIES: readonly CorpusQuery[] = [
  { kind: "common", q: common, intent: `questions with "${common}" (or its inflections)` },
  { kind: "rare", q: RARE_WORDS[0], intent: `questions with "${RARE_WORDS[0]}"` },
  {
    kind: "two words",
    q: `${second} ${third}`,
    intent: `questions with both "${second}" and "${third}" (or inflections)`,
  },
  { kind: "typo", q: typo, intent: `questions with "${typoTarget}" (or inflections)` },
  {
    kind: "prefix",
    q: prefixTarget.slice(0, 4),
    intent: `questions with a word starting "${prefixTarget.slice(0, 4)}"`,
  },
];

/** The words of a text as the ground truth counts them (lower case, letters and digits). */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

const intentRoots = (q: string) => q.split(" ").map((w) => rootOf.get(w) ?? w);
/** Per query (in {@link CORPUS_QUERIES} order): the roots a question must contain, or a prefix. */
const INTENTS: (string[] | { prefix: string })[] = [
  intentRoots(common),
  [RARE_WORDS[0]],
  intentRoots(`${second} ${third}`),
  [rootOf.get(typoTarget)!],
  { prefix: prefixTarget.slice(0, 4) },
];

/**
 * Whether question text `q` is what query `k` (its index in {@link CORPUS_QUERIES}) looks
 * for: it contains every intended word (an inflection counts: "caches" for "cache") in its
 * title, description or tags — or, for the prefix query, a word that starts with it.
 *
 * @example
 * ```ts
 * matchesIntent(1, { title: "Backpressure in streams", description: "", tags: [] }); // true
 * ```
 */
export function matchesIntent(k: number, q: CorpusText): boolean {
  return intentsMatched(q)[k];
}

/** {@link matchesIntent} for every query at once (the text is split once). */
function intentsMatched(q: CorpusText): boolean[] {
  const ws = wordsOf(`${q.title} ${q.description} ${q.tags.join(" ")}`);
  const have = new Set(ws.map((w) => rootOf.get(w) ?? w));
  return INTENTS.map((intent) =>
    Array.isArray(intent)
      ? intent.every((r) => have.has(r))
      : ws.some((w) => w.startsWith(intent.prefix))
  );
}

/**
 * How many of the first `n` corpus questions each query's intent matches
 * ({@link matchesIntent}): the hits a perfect engine would have.
 *
 * @example
 * ```ts
 * const expected = expectedHits(1000); // one count per query, in CORPUS_QUERIES order
 * ```
 */
export function expectedHits(n: number): number[] {
  const counts = CORPUS_QUERIES.map(() => 0);
  for (let i = 0; i < n; i++) {
    intentsMatched(corpusQuestion(i)).forEach((hit, k) => hit && counts[k]++);
  }
  return counts;
}

/**
 * Of the question ids `ids` ({@link corpusId}), how many match query `k`'s intent.
 *
 * @example
 * ```ts
 * relevantCount(1, [corpusId(0), corpusId(1)]); // 0 unless one mentions the rare word
 * ```
 */
export function relevantCount(k: number, ids: string[]): number {
  return ids.filter((id) => {
    const i = Number(/^q-seed-(\d+)$/.exec(id)?.[1] ?? NaN);
    return Number.isInteger(i) && matchesIntent(k, corpusQuestion(i));
  }).length;
}

/**
 * Search quality on a fixed corpus: 44 queries of seven kinds (exact, plural or other
 * form, one typo, two typos in a long word, prefix, phrase, tag filter), each with the
 * question it means, among the 40 questions of the corpus and 400 distractors made of the
 * same words. The question must be in the top 5 for at least 95 % of them; the table of
 * ranks is printed.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";
import { ask, getAs, json, member } from "../helpers/community.ts";

/** Distractor questions beside the corpus. */
const DISTRACTORS = 400;

/** [key, title, description, tags] */
const CORPUS: [string, string, string, string[]][] = [
  [
    "kv-counter",
    "Atomic counters in Deno KV",
    "How do I increment a page view counter without races? I tried get and set.",
    ["deno", "kv"],
  ],
  [
    "kv-queue",
    "Replacing KV queues after Deploy Classic",
    "Deno Deploy no longer offers enqueue; what runs background work now?",
    ["deno", "deploy"],
  ],
  [
    "kv-expire",
    "Expiring session keys in KV",
    "Sessions should disappear after a day. Is expireIn reliable?",
    ["kv", "sessions"],
  ],
  [
    "preact-hydration",
    "Hydration mismatch in Preact islands",
    "The server markup differs from the client render and the island flickers.",
    ["preact"],
  ],
  [
    "preact-signals",
    "Sharing state between islands with signals",
    "Two islands on one page need the same cart total.",
    ["preact", "signals"],
  ],
  [
    "hono-middleware",
    "Writing bearer authentication middleware in Hono",
    "I need to reject requests without a valid token before the handler runs.",
    ["hono"],
  ],
  [
    "hono-streaming",
    "Streaming server-sent events from Hono",
    "The browser EventSource reconnects but misses events.",
    ["hono", "sse"],
  ],
  [
    "zod-union",
    "Discriminated unions with zod",
    "Parsing a payload whose shape depends on a type field.",
    ["zod", "typescript"],
  ],
  [
    "ts-generics",
    "Generic constraints that infer literal types",
    "My function widens string literals to string.",
    ["typescript"],
  ],
  [
    "oauth-pkce",
    "Why does OAuth need PKCE for public clients?",
    "A single page app cannot keep a client secret.",
    ["oauth", "security"],
  ],
  [
    "csrf",
    "Cross-site request forgery with SameSite cookies",
    "Are SameSite=Lax cookies enough against CSRF on form posts?",
    ["security", "cookies"],
  ],
  [
    "xss",
    "Escaping user content to prevent XSS",
    "Markdown with raw HTML from users ends up in the page.",
    ["security", "markdown"],
  ],
  [
    "rate-limit",
    "Sliding window rate limiting across instances",
    "Each instance counts separately, so the real limit is multiplied.",
    ["limits", "kv"],
  ],
  [
    "backup",
    "Backing up a production database without downtime",
    "A consistent snapshot while people keep writing.",
    ["operations"],
  ],
  [
    "fsck",
    "Checking consistency of derived counters",
    "Vote totals drift from the voter entries after a crash.",
    ["operations", "kv"],
  ],
  [
    "embeddings",
    "Semantic search with text embeddings",
    "Cosine similarity over vectors from an embeddings endpoint.",
    ["search", "ai"],
  ],
  [
    "bm25",
    "Ranking search results with BM25",
    "Term frequency saturation and document length normalization explained.",
    ["search"],
  ],
  [
    "typo",
    "Typo tolerant lookups with edit distance",
    "Levenshtein automata versus symmetric deletion for fuzzy matching.",
    ["search"],
  ],
  [
    "accessibility",
    "Keyboard navigation for custom dropdown menus",
    "Arrow keys, escape and focus return for an accessible menu.",
    ["accessibility", "html"],
  ],
  [
    "contrast",
    "Colour contrast in dark mode themes",
    "Muted grey text fails the contrast checker at night.",
    ["accessibility", "css"],
  ],
  [
    "grid",
    "Responsive card grid without media queries",
    "auto-fill and minmax for cards that wrap on phones.",
    ["css"],
  ],
  [
    "lighthouse",
    "Improving Lighthouse performance scores",
    "Largest contentful paint is slow on the home page.",
    ["performance"],
  ],
  [
    "cold-start",
    "Reducing cold start time of serverless functions",
    "Imports at module load make the first request slow.",
    ["performance", "deploy"],
  ],
  [
    "memory-leak",
    "Tracking a memory leak in a long running server",
    "Heap snapshots grow by a megabyte every hour.",
    ["performance", "debugging"],
  ],
  [
    "websocket",
    "Reconnecting websockets with exponential backoff",
    "Clients hammer the server after a restart.",
    ["networking"],
  ],
  [
    "dns",
    "DNS rebinding attacks on local servers",
    "A page on the internet reaches my localhost API through a hostname.",
    ["security", "networking"],
  ],
  [
    "docker",
    "Multi stage Docker builds for smaller images",
    "The image ships the whole toolchain.",
    ["docker", "operations"],
  ],
  [
    "git-rebase",
    "Interactive rebase to squash commits",
    "Cleaning up a branch before merging it.",
    ["git"],
  ],
  ["git-bisect", "Finding a regression with git bisect", "Which commit made the tests slow?", [
    "git",
    "debugging",
  ]],
  [
    "sqlite-wal",
    "SQLite write ahead logging and concurrent readers",
    "Readers block while a writer holds the lock.",
    ["sqlite", "databases"],
  ],
  [
    "postgres-index",
    "Partial indexes in Postgres for soft deletes",
    "Queries filter on deleted_at is null.",
    ["databases"],
  ],
  [
    "pagination",
    "Cursor pagination instead of offset pagination",
    "Deep pages get slower and rows shift between pages.",
    ["api", "databases"],
  ],
  [
    "idempotency",
    "Idempotency keys for retried POST requests",
    "A client retries after a timeout and creates duplicates.",
    ["api"],
  ],
  [
    "openapi",
    "Generating clients from an OpenAPI document",
    "Keeping the schema and the handlers in agreement.",
    ["api", "openapi"],
  ],
  [
    "mcp",
    "Connecting an MCP client to a remote server",
    "The model context protocol over streamable HTTP with OAuth.",
    ["mcp", "ai"],
  ],
  [
    "llm-stream",
    "Streaming chat completions token by token",
    "Showing partial answers from the language model as they arrive.",
    ["ai"],
  ],
  [
    "prompt-injection",
    "Defending agents against prompt injection",
    "Untrusted page text tells the agent to leak its instructions.",
    ["ai", "security"],
  ],
  [
    "i18n",
    "Right to left languages in a web interface",
    "Arabic and Hebrew titles mix with English words.",
    ["i18n", "html"],
  ],
  [
    "timezone",
    "Displaying relative times across timezones",
    "Three hours ago should be right for every reader.",
    ["i18n"],
  ],
  ["photography", "Photographing quokkas at dawn", "Which lens for small animals in low light?", [
    "hobby",
  ]],
];

/**
 * Distractors: questions made of the corpus's own words, shuffled (a fixed pseudo-random
 * sequence), so every query word also appears in questions it does not mean.
 */
function distractors(n: number): { title: string; description: string; tags: string[] }[] {
  const vocabulary = [
    ...new Set(CORPUS.flatMap(([, t, d]) => `${t} ${d}`.toLowerCase().match(/[a-z]{3,}/g)!)),
  ];
  const tags = [...new Set(CORPUS.flatMap(([, , , t]) => t))];
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = (k: number) =>
    Array.from({ length: k }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(" ");
  return Array.from({ length: n }, () => ({
    title: pick(6),
    description: pick(20),
    tags: [tags[Math.floor(next() * tags.length)]],
  }));
}

/** [kind, query, intended key] */
const QUERIES: [string, string, string][] = [
  ["exact", "atomic counters", "kv-counter"],
  ["exact", "hydration mismatch", "preact-hydration"],
  ["exact", "PKCE", "oauth-pkce"],
  ["exact", "bisect", "git-bisect"],
  ["exact", "quokkas", "photography"],
  ["exact", "rebinding", "dns"],
  ["exact", "websockets backoff", "websocket"],
  ["exact", "squash commits", "git-rebase"],
  ["form", "counter", "kv-counter"],
  ["form", "expire session key", "kv-expire"],
  ["form", "escaping", "xss"],
  ["form", "reconnect websocket", "websocket"],
  ["form", "index partial", "postgres-index"],
  ["form", "embedding", "embeddings"],
  ["typo", "hydratoin", "preact-hydration"],
  ["typo", "middlware hono", "hono-middleware"],
  ["typo", "cuonters", "kv-counter"],
  ["typo", "idempotncy", "idempotency"],
  ["typo", "paginaton", "pagination"],
  ["typo", "embedings", "embeddings"],
  ["typo", "rebinding atacks", "dns"],
  ["typo", "contarst", "contrast"],
  ["two typos", "acessibilty", "accessibility"],
  ["two typos", "consistancy countrs", "fsck"],
  ["two typos", "authentcation midleware", "hono-middleware"],
  ["two typos", "discriminatd unoins", "zod-union"],
  ["two typos", "photographng", "photography"],
  ["two typos", "performnce lighthose", "lighthouse"],
  ["prefix", "hydr", "preact-hydration"],
  ["prefix", "git bis", "git-bisect"],
  ["prefix", "idempot", "idempotency"],
  ["prefix", "serverless cold sta", "cold-start"],
  ["prefix", "prompt inj", "prompt-injection"],
  ["prefix", "timezo", "timezone"],
  ["phrase", '"write ahead logging"', "sqlite-wal"],
  ["phrase", '"memory leak"', "memory-leak"],
  ["phrase", '"cursor pagination"', "pagination"],
  ["phrase", '"dark mode"', "contrast"],
  ["phrase", '"public clients"', "oauth-pkce"],
  ["tag", "keys tag:sessions", "kv-expire"],
  ["tag", "search tag:ai", "embeddings"],
  ["tag", "events tag:sse", "hono-streaming"],
  ["tag", "slow tag:debugging", "git-bisect"],
  ["tag", "instances tag:limits", "rate-limit"],
];

Deno.test("search quality: the intended question is in the top 5 for at least 95 % of 44 queries", async () => {
  const t = await createTestApp({ env: { LIMIT_QUESTIONS_PER_HOUR: "0" } });
  try {
    const ada = await member(t, "Ada");
    const idOf = new Map<string, string>();
    for (const [key, title, description, tags] of CORPUS) {
      idOf.set(key, await ask(t, ada, { title, description, tags }));
    }
    for (const d of distractors(DISTRACTORS)) await ask(t, ada, d);
    const rows: { kind: string; query: string; rank: number | null }[] = [];
    for (const [kind, query, key] of QUERIES) {
      const r = await json<{ questions: { id: string }[] }>(
        getAs(t, null, `/api/questions?limit=5&q=${encodeURIComponent(query)}`),
      );
      assert.equal(r.status, 200);
      const at = r.body.questions.findIndex((q) => q.id === idOf.get(key));
      rows.push({ kind, query, rank: at === -1 ? null : at + 1 });
    }
    const hits = rows.filter((r) => r.rank !== null).length;
    console.log(
      [
        "| kind | query | rank |",
        "|---|---|---|",
        ...rows.map((r) => `| ${r.kind} | ${r.query} | ${r.rank ?? "—"} |`),
        `| all | ${hits}/${rows.length} in the top 5 | ${
          rows.filter((r) => r.rank === 1).length
        } first |`,
      ].join("\n"),
    );
    assert(QUERIES.length >= 40);
    assert(hits / rows.length >= 0.95, `${hits}/${rows.length} in the top 5`);
  } finally {
    await t.close();
  }
});

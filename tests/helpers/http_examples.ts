/**
 * The request/response examples of a Markdown guide (fenced `http` blocks, as in
 * /skill.md) and a shape comparison of an example body with a real one.
 */

/** A request example: `METHOD /path HTTP/1.1`, headers, blank line, optional JSON body. */
export interface RequestExample {
  method: string;
  path: string;
  headers: [string, string][];
  body: string | null;
}

/** A response example: `HTTP/1.1 <status> …`, headers, blank line, JSON body. */
export interface ResponseExample {
  status: number;
  headers: [string, string][];
  body: unknown;
}

/** A request with the response it gets, or a response shown on its own. */
export interface ExamplePair {
  request: RequestExample | null;
  response: ResponseExample;
  /** The Markdown line where the response block starts (for messages). */
  line: number;
}

function splitHead(text: string): { head: string[]; body: string } {
  const blank = text.indexOf("\n\n");
  const headText = blank === -1 ? text : text.slice(0, blank);
  const body = blank === -1 ? "" : text.slice(blank + 2).trim();
  return { head: headText.split("\n"), body };
}

function headerPairs(lines: string[]): [string, string][] {
  return lines.map((l) => {
    const i = l.indexOf(":");
    if (i <= 0) throw new Error(`bad header line in example: ${l}`);
    return [l.slice(0, i).trim(), l.slice(i + 1).trim()];
  });
}

/**
 * Every `http` example of a Markdown text, paired: a request block followed by a response
 * block is one pair; a response block after something else stands alone.
 *
 * @example
 * ```ts
 * const pairs = httpExamples(await (await fetch(url + "/skill.md")).text());
 * ```
 */
export function httpExamples(markdown: string): ExamplePair[] {
  const blocks: { text: string; line: number }[] = [];
  const re = /^```http\n([\s\S]*?)\n```$/gm;
  for (const m of markdown.matchAll(re)) {
    blocks.push({ text: m[1], line: markdown.slice(0, m.index).split("\n").length });
  }
  const pairs: ExamplePair[] = [];
  let pending: RequestExample | null = null;
  for (const { text, line } of blocks) {
    const { head, body } = splitHead(text);
    const status = /^HTTP\/1\.1 (\d{3})\b/.exec(head[0]);
    if (status) {
      pairs.push({
        request: pending,
        response: {
          status: Number(status[1]),
          headers: headerPairs(head.slice(1)),
          body: body ? JSON.parse(body) : null,
        },
        line,
      });
      pending = null;
      continue;
    }
    const start = /^([A-Z]+) (\S+) HTTP\/1\.1$/.exec(head[0]);
    if (!start) throw new Error(`line ${line}: an http block is neither request nor response`);
    if (pending) throw new Error(`line ${line}: a request example has no response example`);
    pending = {
      method: start[1],
      path: start[2],
      headers: headerPairs(head.slice(1)),
      body: body || null,
    };
  }
  if (pending) throw new Error("the last request example has no response example");
  return pairs;
}

function describe(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

/**
 * Where a real JSON value differs from a documentation example. Rules: objects must have
 * exactly the same keys; arrays the same length; numbers match any number (integers
 * any integer); booleans and null exactly; strings exactly, except that `…` in an
 * example string matches any text (so `"q-agent-…"` means "starts with q-agent-").
 *
 * @example
 * ```ts
 * assert.deepEqual(shapeDiff({ id: "q-…", n: 1 }, { id: "q-7", n: 4 }), []);
 * ```
 */
export function shapeDiff(example: unknown, real: unknown, at = "$"): string[] {
  if (example === null || typeof example === "boolean") {
    return example === real
      ? []
      : [`${at}: expected ${JSON.stringify(example)}, got ${JSON.stringify(real)}`];
  }
  if (typeof example === "number") {
    if (typeof real !== "number") return [`${at}: expected a number, got ${describe(real)}`];
    return Number.isInteger(example) && !Number.isInteger(real)
      ? [`${at}: expected an integer, got ${real}`]
      : [];
  }
  if (typeof example === "string") {
    if (typeof real !== "string") return [`${at}: expected a string, got ${describe(real)}`];
    if (!example.includes("…")) {
      return example === real
        ? []
        : [`${at}: expected ${JSON.stringify(example)}, got ${JSON.stringify(real)}`];
    }
    const pattern = example.split("…").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("[\\s\\S]*");
    return new RegExp(`^${pattern}$`).test(real)
      ? []
      : [`${at}: ${JSON.stringify(real)} does not fit ${JSON.stringify(example)}`];
  }
  if (Array.isArray(example)) {
    if (!Array.isArray(real)) return [`${at}: expected an array, got ${describe(real)}`];
    if (example.length !== real.length) {
      return [`${at}: example has ${example.length} items, real answer ${real.length}`];
    }
    return example.flatMap((e, i) => shapeDiff(e, real[i], `${at}[${i}]`));
  }
  if (real === null || typeof real !== "object" || Array.isArray(real)) {
    return [`${at}: expected an object, got ${describe(real)}`];
  }
  const ex = example as Record<string, unknown>;
  const re = real as Record<string, unknown>;
  const out: string[] = [];
  for (const k of Object.keys(ex)) {
    if (!(k in re)) out.push(`${at}.${k}: in the example, missing from the real answer`);
    else out.push(...shapeDiff(ex[k], re[k], `${at}.${k}`));
  }
  for (const k of Object.keys(re)) {
    if (!(k in ex)) out.push(`${at}.${k}: in the real answer, missing from the example`);
  }
  return out;
}

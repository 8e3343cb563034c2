/**
 * One log line per request: method, path (never the query, which can carry OAuth codes
 * and state), status and milliseconds. No headers, so no cookies or tokens.
 *
 * Log lines are data: the path comes from the client (Hono's `c.req.path` is the decoded
 * path, so `%0a` arrives as a real newline), so every control character — C0, DEL, C1 —
 * and the Unicode line/paragraph separators U+2028/U+2029 are escaped (`\x0a`, `\x1b`,
 * `\u2028`), as is the backslash itself (so an escape in the log is never ambiguous).
 * One request is always exactly one line, and no escape sequence reaches a terminal.
 *
 * @module
 */

/** Where log lines go; tests swap it to capture output. */
export const logSink = { write: (line: string) => console.log(line) };

/**
 * `text` with control characters, U+2028/2029 and `\` escaped, safe inside one log line.
 *
 * @example
 * ```ts
 * escapeLogText("/a\nb\u001b[31m"); // "/a\\x0ab\\x1b[31m"
 * ```
 */
export function escapeLogText(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\\\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (ch) => {
    if (ch === "\\") return "\\\\";
    const code = ch.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/**
 * The log line for one request; method and path are escaped by {@link escapeLogText}.
 *
 * @example
 * ```ts
 * formatRequestLine("GET", "/healthz", 200, 1.234); // "GET /healthz 200 1.2ms"
 * ```
 */
export function formatRequestLine(method: string, path: string, status: number, ms: number) {
  return `${escapeLogText(method)} ${escapeLogText(path)} ${status} ${ms.toFixed(1)}ms`;
}

/**
 * One log line per request: method, path (never the query, which can carry OAuth codes
 * and state), status and milliseconds. No headers, so no cookies or tokens.
 *
 * @module
 */

/** Where log lines go; tests swap it to capture output. */
export const logSink = { write: (line: string) => console.log(line) };

/**
 * The log line for one request.
 *
 * @example
 * ```ts
 * formatRequestLine("GET", "/healthz", 200, 1.234); // "GET /healthz 200 1.2ms"
 * ```
 */
export function formatRequestLine(method: string, path: string, status: number, ms: number) {
  return `${method} ${path} ${status} ${ms.toFixed(1)}ms`;
}

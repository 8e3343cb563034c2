/**
 * Load generator, run as its own process so it does not share the server's event loop:
 * `deno run -A bench/load.ts <config.json>` where the config names the url, and
 * optionally method, body, seconds, connections and header sets (connection i uses set
 * i mod n — e.g. its own session cookie or API key). Prints autocannon's result as one
 * JSON line. Loopback targets only.
 */
import autocannon from "autocannon";
import { createRequire } from "node:module";
import type { LoadConfig } from "./harness.ts";

const config = JSON.parse(await Deno.readTextFile(Deno.args[0])) as LoadConfig;
if (config.bodiesAsBytes) {
  // autocannon appends every body chunk to a string (pipelinedRequestsQueue.js `addBody`):
  // a UTF-8 decode that, on brotli bytes, costs the loader ~5 µs per KB — more than a bare
  // JSON request in all. Counted instead, as a browser would take them.
  const queue = createRequire(import.meta.resolve("autocannon"))("./lib/pipelinedRequestsQueue.js");
  queue.prototype.addBody = function (this: { peek(): { bodyBytes?: number } | undefined }, data: {
    length: number;
  }) {
    const req = this.peek();
    if (req) req.bodyBytes = (req.bodyBytes ?? 0) + data.length;
  };
}
const host = new URL(config.url).hostname;
if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
  console.error("bench/load.ts only targets loopback addresses");
  Deno.exit(2);
}
const sets = config.headerSets ?? [];
let next = 0;
const result = await autocannon({
  url: config.url,
  method: config.method ?? "GET",
  body: config.body,
  duration: config.seconds ?? 5,
  connections: config.connections ?? 50,
  // deno-lint-ignore no-explicit-any
  setupClient: (client: any) => {
    if (sets.length > 0) client.setHeaders(sets[next++ % sets.length]);
  },
});
console.log(JSON.stringify({
  requestsPerSec: result.requests.average,
  latencyP50: result.latency.p50,
  latencyP99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
  status5xx: result["5xx"],
  total: result.requests.total,
}));

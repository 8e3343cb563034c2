/**
 * Load generator for the community benchmarks, run as its own process like bench/load.ts,
 * but with one identity per connection: `deno run -A bench/community_load.ts <config.json>`
 * where the config names the url, method, body, duration, connections and a list of header
 * sets (connection i uses set i mod n — its own session cookie or API key). Prints
 * autocannon's result as one JSON line. Loopback targets only.
 */
import autocannon from "autocannon";

interface Config {
  url: string;
  method: "GET" | "POST";
  body?: string;
  seconds: number;
  connections: number;
  headerSets: Record<string, string>[];
}

const config = JSON.parse(await Deno.readTextFile(Deno.args[0])) as Config;
const host = new URL(config.url).hostname;
if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
  console.error("bench/community_load.ts only targets loopback addresses");
  Deno.exit(2);
}
let next = 0;
const result = await autocannon({
  url: config.url,
  method: config.method,
  body: config.body,
  duration: config.seconds,
  connections: config.connections,
  // deno-lint-ignore no-explicit-any
  setupClient: (client: any) => {
    client.setHeaders(config.headerSets[next++ % config.headerSets.length]);
  },
});
console.log(JSON.stringify({
  requestsPerSec: result.requests.average,
  latencyP50: result.latency.p50,
  latencyP99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
  total: result.requests.total,
}));

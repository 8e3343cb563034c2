/**
 * Load generator, run as its own process so it does not share the server's event loop:
 * `deno run -A bench/load.ts <url> <seconds> <connections>` prints autocannon's result
 * as one JSON line. Loopback targets only.
 */
import autocannon from "autocannon";

const [url, seconds = "5", connections = "50"] = Deno.args;
const host = new URL(url).hostname;
if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
  console.error("bench/load.ts only targets loopback addresses");
  Deno.exit(2);
}
const result = await autocannon({
  url,
  duration: Number(seconds),
  connections: Number(connections),
});
console.log(JSON.stringify({
  requestsPerSec: result.requests.average,
  latencyP50: result.latency.p50,
  latencyP99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
  total: result.requests.total,
}));

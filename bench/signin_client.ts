/**
 * Client for the sign-in benchmark, run as its own process (like bench/load.ts) so it
 * does not share the server's event loop:
 * `deno run -A bench/signin_client.ts <mode> <origin> <seconds> <concurrency>` prints
 * `{perSec, total, failures, p50, p99}` as one JSON line.
 *
 * Modes: `json` (GET <origin>/json, the baseline), `signin` (a complete sign-in: login
 * start → provider callback → app callback → session check), `session` (GET
 * /api/auth/session with a live session cookie).
 */
const [mode, origin, seconds = "5", concurrency = "8"] = Deno.args;
if (!["127.0.0.1", "localhost"].includes(new URL(origin).hostname)) {
  console.error("bench/signin_client.ts only targets loopback addresses");
  Deno.exit(2);
}

function cookiesOf(res: Response, jar: Map<string, string>) {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq);
    if (/Max-Age=0/.test(line)) jar.delete(name);
    else jar.set(name, pair.slice(eq + 1));
  }
}

const header = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

async function get(path: string, jar: Map<string, string>): Promise<Response> {
  const res = await fetch(`${origin}${path}`, {
    redirect: "manual",
    headers: { cookie: header(jar) },
  });
  cookiesOf(res, jar);
  return res;
}

/** One complete sign-in; true when it ends with a working session. */
async function signIn(): Promise<boolean> {
  const jar = new Map<string, string>();
  const start = await get("/api/auth/login/provider_c", jar);
  const state = new URL(start.headers.get("location")!).searchParams.get("state")!;
  const cb = await get(`/api/auth/callback/provider_c?code=bench&state=${state}`, jar);
  const app = new URL(cb.headers.get("location")!).pathname + "?provider=provider_c-oauth";
  const done = await get(app, jar);
  await done.body?.cancel();
  const me = await get("/api/auth/session", jar);
  await me.body?.cancel();
  return me.status === 200;
}

let sessionJar: Map<string, string> | null = null;
if (mode === "session") {
  sessionJar = new Map();
  const ok = await signIn();
  if (!ok) throw new Error("could not sign in for the session benchmark");
  // signIn's jar is local: sign in once more keeping the jar.
  const start = await get("/api/auth/login/provider_c", sessionJar);
  const state = new URL(start.headers.get("location")!).searchParams.get("state")!;
  const cb = await get(`/api/auth/callback/provider_c?code=bench&state=${state}`, sessionJar);
  await get(
    new URL(cb.headers.get("location")!).pathname + "?provider=provider_c-oauth",
    sessionJar,
  );
}

async function once(): Promise<boolean> {
  if (mode === "signin") return await signIn();
  const res = mode === "json"
    ? await fetch(`${origin}/json`)
    : await fetch(`${origin}/api/auth/session`, { headers: { cookie: header(sessionJar!) } });
  await res.body?.cancel();
  return res.status === 200;
}

const deadline = performance.now() + Number(seconds) * 1000;
const latencies: number[] = [];
let failures = 0;
await Promise.all(Array.from({ length: Number(concurrency) }, async () => {
  while (performance.now() < deadline) {
    const t0 = performance.now();
    try {
      if (!(await once())) failures++;
    } catch {
      failures++;
    }
    latencies.push(performance.now() - t0);
  }
}));
latencies.sort((a, b) => a - b);
const pct = (p: number) => Number((latencies[Math.floor(latencies.length * p)] ?? 0).toFixed(2));
console.log(JSON.stringify({
  perSec: latencies.length / Number(seconds),
  total: latencies.length,
  failures,
  p50: pct(0.5),
  p99: pct(0.99),
}));

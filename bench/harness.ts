/**
 * Shared pieces of the benchmarks: a loopback load run in a child process, and the
 * app started over a temporary KV file.
 */
import { createTestApp, type TestApp, type TestAppOptions } from "../tests/helpers/app.ts";
import { onInterrupt } from "./before_tree.ts";

/** One autocannon result. */
export interface LoadResult {
  requestsPerSec: number;
  latencyP50: number;
  latencyP99: number;
  non2xx: number;
  errors: number;
  total: number;
  /** Responses with a status ≥ 500. */
  status5xx?: number;
}

const LOAD = new URL("./load.ts", import.meta.url).pathname;

/** What bench/load.ts runs. */
export interface LoadConfig {
  url: string;
  method?: "GET" | "POST";
  body?: string;
  seconds?: number;
  connections?: number;
  /** Connection i sends header set i mod n (its own cookie or API key). */
  headerSets?: Record<string, string>[];
  /**
   * Take response bodies as bytes (counted) rather than as autocannon's UTF-8 string: a
   * compressed body costs the loader ~5 µs per KB to decode, which no browser pays.
   */
  bodiesAsBytes?: boolean;
}

/**
 * Drive a loopback URL from a separate process with autocannon.
 *
 * @example
 * ```ts
 * const r = await loadWith({ url: "http://127.0.0.1:8000/json", seconds: 5, connections: 50 });
 * ```
 */
export async function loadWith(config: LoadConfig): Promise<LoadResult> {
  const file = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(file, JSON.stringify(config));
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", LOAD, file],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!out.success) throw new Error(`load generator failed for ${config.url}`);
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    return JSON.parse(lines.at(-1)!) as LoadResult;
  } finally {
    await Deno.remove(file);
  }
}

/**
 * Drive `url` with GETs for `seconds` over `connections`.
 *
 * @example
 * ```ts
 * const r = await load("http://127.0.0.1:8000/json", 5, 50);
 * ```
 */
export function load(url: string, seconds: number, connections = 50): Promise<LoadResult> {
  return loadWith({ url, seconds, connections });
}

/** The app over a temp KV file (as in production), with its cleanup. */
export async function benchApp(opts: TestAppOptions = {}): Promise<TestApp & { dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "parley-bench-" });
  const t = await createTestApp({ ...opts, kvPath: `${dir}/bench.kv` });
  const close = t.close;
  return {
    ...t,
    dir,
    close: async () => {
      await close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Format a row of the results table. */
export function row(name: string, value: string, ratio?: number): string {
  const r = ratio === undefined ? "" : `  ${ratio.toFixed(3)}× baseline`;
  return `${name.padEnd(48)} ${value.padStart(16)}${r}`;
}

/** A server process started by {@link startTree}, and the JSON line it printed. */
export interface TreeServer<T> {
  info: T;
  stop(): Promise<void>;
}

const WORKER = new URL("./speed_worker.ts", import.meta.url).pathname;

/**
 * Run bench/speed_worker.ts inside the source tree `root` (this checkout, or the before
 * commit's worktree, bench/before_tree.ts) with that tree's deno.json, so each side runs
 * its own code. An interrupted run kills it.
 *
 * @example
 * ```ts
 * declare const root: string;
 * const kvPath = `${await Deno.makeTempDir()}/b.kv`;
 * const base = await startTree<{ url: string }>(root, "serve", kvPath);
 * await base.stop();
 * ```
 */
export async function startTree<T>(
  root: string,
  mode: "serve" | "inproc",
  kvPath: string,
  extra: string[] = [],
): Promise<TreeServer<T>> {
  // BENCH_V8_FLAGS runs the server with V8 flags (e.g. those `deno task start` passes).
  const v8 = Deno.env.get("BENCH_V8_FLAGS");
  const flags = v8 ? [`--v8-flags=${v8}`] : [];
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...flags,
      "--config",
      `${root}/deno.json`,
      WORKER,
      mode,
      root,
      kvPath,
      ...extra,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const forget = onInterrupt(() => child.kill("SIGKILL"));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  while (!buf.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`worker in ${root} (${mode}) ended without output`);
    buf += value;
  }
  const info = JSON.parse(buf.slice(0, buf.indexOf("\n"))) as T;
  return {
    info,
    stop: async () => {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await reader.cancel().catch(() => {});
      await child.status;
      forget();
    },
  };
}

/**
 * The likes load of the speed bench: `POST /api/likes` up-votes on one question from 200
 * connections, each signed in as its own voter (its own session cookie).
 *
 * @example
 * ```ts
 * declare const info: { url: string; questionId: string; voterCookies: string[] };
 * const r = await likesLoad(info, 5);
 * ```
 */
export async function likesLoad(
  info: { url: string; questionId: string; voterCookies: string[] },
  seconds: number,
): Promise<LoadResult> {
  return await loadWith({
    url: `${info.url}/api/likes`,
    method: "POST",
    body: JSON.stringify({ targetId: info.questionId, targetType: "question", voteType: "up" }),
    seconds,
    connections: 200,
    headerSets: info.voterCookies.map((cookie) => ({
      cookie,
      origin: info.url,
      "content-type": "application/json",
    })),
  });
}

/** Min, median and max of some runs. */
export interface Spread {
  min: number;
  median: number;
  max: number;
}

/**
 * The {@link Spread} of `xs` (the median of an even count is the lower middle).
 *
 * @example
 * ```ts
 * spread([3, 1, 2]); // { min: 1, median: 2, max: 3 }
 * ```
 */
export function spread(xs: number[]): Spread {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor((s.length - 1) / 2)], max: s[s.length - 1] };
}

/** `min/median/max` with `digits` decimals. */
export function formatSpread(s: Spread, digits = 0): string {
  return `${s.min.toFixed(digits)}/${s.median.toFixed(digits)}/${s.max.toFixed(digits)}`;
}

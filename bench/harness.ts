/**
 * Shared pieces of the benchmarks: a loopback load run in a child process, and the
 * app started over a temporary KV file.
 */
import { createTestApp, type TestApp, type TestAppOptions } from "../tests/helpers/app.ts";

/** One autocannon result. */
export interface LoadResult {
  requestsPerSec: number;
  latencyP50: number;
  latencyP99: number;
  non2xx: number;
  errors: number;
  total: number;
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

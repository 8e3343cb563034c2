/**
 * Serving with a graceful stop: on shutdown the listener closes, requests in flight
 * finish (long streams get a bounded grace period), and only then are resources such
 * as KV closed.
 *
 * @module
 */

/** Options of {@link startServer}. */
export interface ServeOptions {
  port: number;
  hostname: string;
  /** Called once after the last request finished (close KV here). */
  onClosed?: () => void | Promise<void>;
  /** Longest wait for in-flight requests, in ms (default 10 s). */
  graceMs?: number;
  onListen?: (addr: Deno.NetAddr) => void;
}

/** A running server. */
export interface RunningServer {
  addr: Deno.NetAddr;
  /** Stop accepting, let in-flight requests finish, then run `onClosed`. Idempotent. */
  shutdown(): Promise<void>;
  finished: Promise<void>;
}

/**
 * Start `Deno.serve` with a graceful `shutdown()`.
 *
 * @example
 * ```ts
 * declare const app: { fetch: Deno.ServeHandler };
 * declare const kv: Deno.Kv;
 * const server = startServer(app.fetch, { port: 8000, hostname: "0.0.0.0", onClosed: () => kv.close() });
 * Deno.addSignalListener("SIGTERM", () => server.shutdown().then(() => Deno.exit(0)));
 * ```
 */
export function startServer(handler: Deno.ServeHandler, opts: ServeOptions): RunningServer {
  const server = Deno.serve({
    port: opts.port,
    hostname: opts.hostname,
    onListen: (addr) => opts.onListen?.(addr as Deno.NetAddr),
  }, handler);
  let stopping: Promise<void> | null = null;
  const shutdown = () => {
    stopping ??= (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((r) => timer = setTimeout(r, opts.graceMs ?? 10_000));
      await Promise.race([server.shutdown(), grace]);
      clearTimeout(timer);
      await opts.onClosed?.();
    })();
    return stopping;
  };
  return { addr: server.addr as Deno.NetAddr, shutdown, finished: server.finished };
}

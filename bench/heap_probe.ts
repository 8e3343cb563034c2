/**
 * The memory of a process the bench started, read from outside: its RSS (VmRSS of
 * /proc/<pid>/status) and, through the V8 inspector it was started with
 * (`--inspect=127.0.0.1:<port>`, {@link inspectFlag}), the same after a full garbage
 * collection. RSS as it is counts what V8 has not collected yet (with a 4 GB heap limit
 * V8 lets garbage pile up to a few hundred MB before its first full collection); after a
 * collection it is what the process holds.
 *
 * @module
 */

/** Resident memory of `pid`: all of it, anonymous (heaps) and file-backed (the binary). */
export interface Rss {
  rss: number;
  anon: number;
  file: number;
}

/**
 * RSS of `pid` in bytes.
 *
 * @example
 * ```ts
 * const { rss } = await rssOf(Deno.pid);
 * ```
 */
export async function rssOf(pid: number): Promise<Rss> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB$`, "m").exec(status);
    if (!m) throw new Error(`no ${name} for ${pid}`);
    return Number(m[1]) * 1024;
  };
  return { rss: kb("VmRSS"), anon: kb("RssAnon"), file: kb("RssFile") };
}

/**
 * The flag that opens a process's inspector on `port` (loopback only).
 *
 * @example
 * ```ts
 * const args = ["run", "-A", inspectFlag(9300), "main.ts"];
 * ```
 */
export function inspectFlag(port: number): string {
  return `--inspect=127.0.0.1:${port}`;
}

/** A connection to a process's inspector. */
export interface HeapProbe {
  /** A full collection, then the process's RSS and V8's used heap (bytes). */
  collected(pid: number): Promise<Rss & { heapUsed: number }>;
  close(): void;
}

/**
 * Connect to the inspector listening on `port`.
 *
 * @example
 * ```ts
 * declare const child: Deno.ChildProcess;
 * const probe = await connectHeapProbe(9300);
 * const { rss, heapUsed } = await probe.collected(child.pid);
 * probe.close();
 * ```
 */
export async function connectHeapProbe(port: number): Promise<HeapProbe> {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json() as {
    webSocketDebuggerUrl: string;
  }[];
  const ws = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let seq = 0;
  const waiting = new Map<number, (result: Record<string, unknown>) => void>();
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.id && waiting.has(msg.id)) {
      waiting.get(msg.id)!(msg.result ?? {});
      waiting.delete(msg.id);
    }
  };
  const call = (method: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = ++seq;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params: {} }));
    });
  return {
    async collected(pid) {
      await call("HeapProfiler.collectGarbage");
      await new Promise((r) => setTimeout(r, 300));
      const heap = await call("Runtime.getHeapUsage");
      return { ...await rssOf(pid), heapUsed: heap.usedSize as number };
    },
    close: () => ws.close(),
  };
}

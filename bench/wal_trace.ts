/**
 * Where a local store's write stalls come from: `strace` on a `main.ts` process, watching
 * only the calls SQLite makes to make writes durable (`fsync`, `ftruncate`), and which
 * timed requests overlapped a WAL checkpoint.
 *
 * Deno KV's local store is SQLite in WAL mode: every commit appends its changed pages to
 * the write-ahead log and syncs it (the file synced most), and once the log passes its
 * limit the commit that did so copies the log's pages back into the database and syncs
 * that file — a checkpoint, during which the store's one writer thread does nothing else.
 * A checkpoint is taken here as the span from the end of the last log sync before a sync
 * of another file to the end of that sync. Deno Deploy's KV is not SQLite; this explains
 * local figures only.
 *
 * @module
 */

/** A span of time in epoch milliseconds. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Start `strace` on process `pid` (its threads too; only `fsync` and `ftruncate` stop it).
 * Null when `strace` cannot run here. `stop` ends it and returns what it printed.
 *
 * @example
 * ```ts
 * const trace = await traceSyncs(Deno.pid);
 * const text = await trace?.stop();
 * ```
 */
export async function traceSyncs(pid: number): Promise<{ stop(): Promise<string> } | null> {
  const out = await Deno.makeTempFile({ prefix: "parley-strace-" });
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("strace", {
      args: [
        "-f",
        "--seccomp-bpf",
        "-e",
        "trace=fsync,fdatasync,ftruncate",
        "-ttt",
        "-T",
        "-p",
        String(pid),
        "-o",
        out,
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
  } catch {
    await Deno.remove(out);
    return null;
  }
  // strace attaches within a moment; a call before that is not seen.
  await new Promise((r) => setTimeout(r, 500));
  return {
    stop: async () => {
      try {
        child.kill("SIGINT");
      } catch { /* already gone */ }
      await child.status;
      const text = await Deno.readTextFile(out);
      await Deno.remove(out);
      return text;
    },
  };
}

/**
 * The WAL checkpoints in `strace` output of {@link traceSyncs}: each from the end of the
 * last sync of the log (the file synced most) before a sync of another file, to the end
 * of that sync.
 *
 * @example
 * ```ts
 * const text = [
 *   "7 1000.000000 fsync(22) = 0 <0.000300>",
 *   "7 1000.001000 fsync(22) = 0 <0.000300>",
 *   "7 1000.010000 fsync(21) = 0 <0.001000>",
 * ].join("\n");
 * checkpoints(text); // [{ start: 1000001.3, end: 1000011 }] (ms, rounding aside)
 * ```
 */
export function checkpoints(text: string): Span[] {
  const calls: { at: number; fd: number; ms: number; name: string }[] = [];
  const line = /^\d+\s+([\d.]+)\s+(\w+)\((\d+)[^)]*\)\s+=\s+\S+\s+<([\d.]+)>/;
  for (const l of text.split("\n")) {
    const m = line.exec(l);
    if (m) {
      calls.push({
        at: Number(m[1]) * 1000,
        name: m[2],
        fd: Number(m[3]),
        ms: Number(m[4]) * 1000,
      });
    }
  }
  calls.sort((a, b) => a.at - b.at);
  const syncs = new Map<number, number>();
  for (const c of calls) if (c.name !== "ftruncate") syncs.set(c.fd, (syncs.get(c.fd) ?? 0) + 1);
  const wal = [...syncs].sort((a, b) => b[1] - a[1])[0]?.[0];
  const spans: Span[] = [];
  let lastWalSync: number | null = null;
  for (const c of calls) {
    if (c.name === "ftruncate") continue;
    if (c.fd === wal) lastWalSync = c.at + c.ms;
    else if (lastWalSync !== null) spans.push({ start: lastWalSync, end: c.at + c.ms });
  }
  return spans;
}

/**
 * The durations (ms) of `requests`, split into those that overlapped one of `spans` and
 * those clear of them.
 *
 * @example
 * ```ts
 * overlapping([{ start: 0, end: 5 }, { start: 10, end: 12 }], [{ start: 4, end: 9 }]);
 * // { overlapped: [5], clear: [2] }
 * ```
 */
export function overlapping(
  requests: Span[],
  spans: Span[],
): { overlapped: number[]; clear: number[] } {
  const overlapped: number[] = [];
  const clear: number[] = [];
  for (const r of requests) {
    const hit = spans.some((s) => s.start <= r.end && s.end >= r.start);
    (hit ? overlapped : clear).push(r.end - r.start);
  }
  return { overlapped, clear };
}

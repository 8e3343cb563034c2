/**
 * Debates run detached from the request that started them (a client that leaves does
 * not stop its debate). This keeps track of the ones running in this process, so that
 * shutdown can let them save before KV closes, and so that a reader can tell a live
 * debate from one whose process died.
 *
 * @module
 */

const running = new Map<string, Promise<void>>();

/**
 * Track a running debate until its promise settles. The promise must not reject
 * (the engine reports its own failures); a rejection is logged, never thrown.
 *
 * @example
 * ```ts
 * import { runDebate } from "@/lib/debates/engine.ts";
 * declare const args: Parameters<typeof runDebate>;
 * trackDebate("debate_1700000000000_k3j9x0qa2m", runDebate(...args));
 * ```
 */
export function trackDebate(id: string, run: Promise<void>): void {
  const settled: Promise<void> = run.catch((err) => console.error("Debate runner failed", id, err))
    .finally(() => {
      // A run taken over by another (lib/debates/resume.ts) must not untrack its successor.
      if (running.get(id) === settled) running.delete(id);
    });
  running.set(id, settled);
}

/** True while the debate `id` is being generated in this process. */
export function isDebateRunning(id: string): boolean {
  return running.has(id);
}

/** How many debates this process is generating now. */
export function runningDebates(): number {
  return running.size;
}

/**
 * Wait until every running debate finished, or `timeoutMs` passed.
 *
 * @example
 * ```ts
 * await waitForDebates(15_000); // then close KV
 * ```
 */
export async function waitForDebates(timeoutMs: number): Promise<void> {
  if (running.size === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((r) => timer = setTimeout(r, timeoutMs));
  try {
    await Promise.race([Promise.allSettled([...running.values()]), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

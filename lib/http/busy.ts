/**
 * Whether this process is making a response right now, so background work can step aside.
 *
 * Why: a follower fan-out writes hundreds of notifications a second through the same
 * event loop and the same store as the requests. A batch started while a request is being
 * answered, or just before the next one comes, makes that request wait for it.
 * {@link handling} counts the requests whose response is being made (until the handler
 * returns its `Response`: a live stream counts only until its headers, or one open page
 * would hold background work off for good), and {@link untilIdle} lets background work
 * start once none has been for a moment, within a bounded wait.
 *
 * Kept per process, and only a scheduling hint: another instance needs none of it.
 *
 * @module
 */

let making = 0;
/** When the last response in making was made (`performance.now()`). */
let lastMade = -Infinity;
let idle: PromiseWithResolvers<void> | null = null;

/**
 * Count `response` as being made until it settles, and return it.
 *
 * @example
 * ```ts
 * declare const app: { fetch: Deno.ServeHandler };
 * const handler: Deno.ServeHandler = (req, info) => handling(app.fetch(req, info));
 * ```
 */
export async function handling<T>(response: T | Promise<T>): Promise<T> {
  making++;
  try {
    return await response;
  } finally {
    if (--making === 0) {
      lastMade = performance.now();
      idle?.resolve();
      idle = null;
    }
  }
}

/** How many responses this process is making now. */
export function responsesInMaking(): number {
  return making;
}

/**
 * Resolve once this process has made no response for `quietMs`, or after `maxWaitMs`
 * (background work that waited that long goes ahead: under constant load it must still
 * progress). Answers whether it was quiet (false: the wait ran out).
 *
 * @example
 * ```ts
 * const quiet = await untilIdle(100, 2);
 * ```
 */
export async function untilIdle(maxWaitMs: number, quietMs = 0): Promise<boolean> {
  const deadline = performance.now() + maxWaitMs;
  for (;;) {
    const now = performance.now();
    if (making === 0 && now - lastMade >= quietMs) return true;
    if (now >= deadline) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wake = making === 0
      ? Math.min(quietMs - (now - lastMade), deadline - now)
      : deadline - now;
    const waits = [new Promise<void>((r) => timer = setTimeout(r, wake))];
    if (making > 0) waits.push((idle ??= Promise.withResolvers<void>()).promise);
    await Promise.race(waits);
    clearTimeout(timer);
  }
}

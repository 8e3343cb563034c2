/**
 * Whether this process is making a response right now, so background work can step aside.
 *
 * Why: a follower fan-out writes hundreds of notifications a second through the same
 * event loop and the same store as the requests. A batch started while a request is being
 * answered makes that request wait for it. {@link handling} counts the requests whose
 * response is being made (until the handler returns its `Response`: a live stream counts
 * only until its headers, or one open page would hold background work off for good), and
 * {@link untilIdle} lets background work start when none is, within a bounded wait.
 *
 * Kept per process, and only a scheduling hint: another instance needs none of it.
 *
 * @module
 */

let making = 0;
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
    if (--making === 0 && idle) {
      idle.resolve();
      idle = null;
    }
  }
}

/** How many responses this process is making now. */
export function responsesInMaking(): number {
  return making;
}

/**
 * Resolve when this process makes no response, or after `maxWaitMs` (background work
 * that waited that long goes ahead: under constant load it must still progress).
 *
 * @example
 * ```ts
 * await untilIdle(100);
 * ```
 */
export async function untilIdle(maxWaitMs: number): Promise<void> {
  if (making === 0) return;
  idle ??= Promise.withResolvers<void>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    idle.promise,
    new Promise<void>((r) => timer = setTimeout(r, maxWaitMs)),
  ]);
  clearTimeout(timer);
}

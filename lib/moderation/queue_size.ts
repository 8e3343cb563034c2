/**
 * The moderation queue's size for the header a moderator sees on every page: keys only,
 * and apart from the rest of moderation so the middleware of every request loads none of
 * it (main.ts's start-up budget).
 *
 * @module
 */
import { keys } from "../kv/keys.ts";

/** How many queue entries one read returns at most. */
export const QUEUE_LIMIT = 50;

/**
 * How many posts wait in the moderation queue (keys only; at most {@link QUEUE_LIMIT}, the
 * queue page's own bound).
 *
 * @example
 * ```ts
 * import { modQueueSize } from "./queue_size.ts";
 *
 * declare const kv: Deno.Kv;
 * const waiting = await modQueueSize(kv); // 0 when nothing is flagged
 * ```
 */
export async function modQueueSize(kv: Deno.Kv): Promise<number> {
  let n = 0;
  for await (
    const _ of kv.list({ prefix: keys.modQueuePrefix() }, { limit: QUEUE_LIMIT })
  ) n++;
  return n;
}

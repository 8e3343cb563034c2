/**
 * Holes in the dense feeds. The newest feed (`questions_by_seq`) and each tag feed
 * (`questions_by_tag`) number questions 1…head so that page p is one key range. Removing
 * a question from a feed (a delete, a hide by moderation, or a tag dropped by an edit)
 * deletes its row and records the position as a hole (`["seq_holes", feed, seq]`, plus a
 * `sum` counter), in the same atomic op as the removal; a restore of a hidden question
 * fills its holes with its rows again (./listing.ts). Nothing is renumbered, so removals
 * never contend with creations on the sequence heads.
 *
 * Pages stay full and `total` stays right:
 * - A page read first finds where the page starts among the live rows: it walks the holes
 *   from the top down (newest first) and moves the start one position lower for each hole
 *   at or above it; then it lists the row range below that start with `limit` — the
 *   deleted rows are simply absent, so the list returns exactly `limit` live rows (fewer
 *   only at the end). Cost: one list of the holes newer than the page (none for the
 *   usual page 1 of a feed without recent deletions) plus the one range read.
 * - Totals: the global feed's total is the `questions` counter (moved by the delete, the
 *   hide and the restore); a tag feed's total is its head minus its hole counter.
 *
 * Chosen over compaction (renumbering every newer row on each delete: O(feed) writes
 * racing the creations' head checks) and over filter-and-over-read (which cannot know
 * where page p starts without reading every earlier page). The walk grows with the number
 * of deletions newer than the page; a bucketed count (holes per 1024 positions) would
 * bound it if deletions ever become a large share of a feed.
 *
 * @module
 */
import { EVENTUAL } from "../../kv/consistency.ts";
import { addToCounter } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";

/** The feed id of the global newest feed. */
export const ALL_FEED = "all";

/** The feed id of one tag's feed. */
export function tagFeed(tag: string): string {
  return `tag:${tag}`;
}

/**
 * Record in `op` that position `seq` of `feed` was removed (the caller deletes the row).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const op = kv.atomic();
 * addHole(op, ALL_FEED, 7, "q-1");
 * ```
 */
export function addHole(
  op: Deno.AtomicOperation,
  feed: string,
  seq: number,
  questionId: string,
): Deno.AtomicOperation {
  op.set(keys.seqHole(feed, seq), questionId);
  return addToCounter(op, keys.seqHoleCount(feed), 1);
}

/**
 * Fill the hole at position `seq` of `feed` in `op` (the caller writes the row back there):
 * what a restore of a hidden question does at each of its positions (./listing.ts).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const op = kv.atomic();
 * fillHole(op, ALL_FEED, 7);
 * ```
 */
export function fillHole(
  op: Deno.AtomicOperation,
  feed: string,
  seq: number,
): Deno.AtomicOperation {
  op.delete(keys.seqHole(feed, seq));
  return addToCounter(op, keys.seqHoleCount(feed), -1);
}

/**
 * Values of the live rows of page `page` (1-based, `limit` per page, newest first) of a
 * dense feed whose head is `head`.
 *
 * @example
 * ```ts
 * import { keys } from "@/lib/kv/keys.ts";
 * declare const kv: Deno.Kv;
 * const head = (await kv.get<number>(keys.questionSeqHead())).value ?? 0;
 * const page2 = await livePage<string>(kv, ALL_FEED, head, 2, 20, keys.questionBySeq);
 * ```
 */
export async function livePage<T>(
  kv: Deno.Kv,
  feed: string,
  head: number,
  page: number,
  limit: number,
  keyOf: (seq: number) => Deno.KvKey,
): Promise<T[]> {
  let pos = head - (page - 1) * limit;
  if (pos < 1) return [];
  for await (
    const h of kv.list({ prefix: keys.seqHolesPrefix(feed) }, { reverse: true, ...EVENTUAL })
  ) {
    const seq = h.key[h.key.length - 1] as number;
    if (seq > head) continue; // cannot happen; a hole is always below the head
    if (seq >= pos) pos--;
    else break;
  }
  if (pos < 1) return [];
  const out: T[] = [];
  const range = { start: keyOf(1), end: keyOf(pos + 1) };
  for await (
    const e of kv.list<T>(range, { reverse: true, limit, batchSize: limit, ...EVENTUAL })
  ) {
    out.push(e.value);
  }
  return out;
}

/**
 * A question's rows in the dense feeds (the newest feed and its tags' feeds, ./holes.ts)
 * as it leaves them and comes back. A delete takes them out for good; a hide by moderation
 * takes them out the same way — each row becomes a hole, so pages stay full and a tag's
 * total (head minus holes) leaves it out as the `questions` total does — and a restore
 * puts each row back at the position it held, filling its hole, so the question shows
 * where it showed before. The positions stay in `["question_seqs", id]` meanwhile.
 *
 * Both read the positions' rows and holes and decide from what is there, so a row is
 * never removed twice (a hidden question deleted later leaves no second hole) and a
 * position is never left with neither a row nor a hole.
 *
 * @module
 */
import { getAll } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import { addHole, ALL_FEED, fillHole, tagFeed } from "./holes.ts";
import { type QuestionRecord, seqRowId, tagKey } from "./model.ts";
import type { QuestionSeqEntry } from "./write.ts";

/** One position of a question in a dense feed. */
interface FeedPosition {
  feed: string;
  seq: number;
  row: Deno.KvKey;
  /** The feed's head (where a new position is taken). */
  head: Deno.KvKey;
}

function newestAt(seq: number): FeedPosition {
  return { feed: ALL_FEED, seq, row: keys.questionBySeq(seq), head: keys.questionSeqHead() };
}

function tagAt(tag: string, seq: number): FeedPosition {
  return { feed: tagFeed(tag), seq, row: keys.questionByTag(tag, seq), head: keys.tagSeqHead(tag) };
}

/** The rows and holes at `positions`, read in one round trip and checked in `op`. */
async function readPositions(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  positions: FeedPosition[],
): Promise<{ row: Deno.KvEntryMaybe<unknown>; hole: Deno.KvEntryMaybe<unknown> }[]> {
  const got = await getAll(kv, positions.flatMap((p) => [p.row, keys.seqHole(p.feed, p.seq)]));
  op.check(...got);
  return positions.map((_, i) => ({ row: got[2 * i], hole: got[2 * i + 1] }));
}

/**
 * Take question `q`'s rows out of the feeds at the positions `seqs` names, in `op`: a row
 * that names it is deleted and leaves a hole; a position with neither leaves a hole too
 * (the feed stays dense); a hole already there (a hidden question) is left as it is.
 *
 * @example
 * ```ts
 * import type { QuestionRecord } from "./model.ts";
 * import type { QuestionSeqEntry } from "./write.ts";
 * declare const kv: Deno.Kv;
 * declare const q: QuestionRecord;
 * declare const seqs: QuestionSeqEntry;
 * const op = kv.atomic();
 * await takeOutOfFeeds(kv, op, q, seqs);
 * ```
 */
export async function takeOutOfFeeds(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  q: Pick<QuestionRecord, "id">,
  seqs: QuestionSeqEntry,
): Promise<void> {
  const positions = [
    ...(seqs.seq > 0 ? [newestAt(seqs.seq)] : []),
    ...Object.entries(seqs.tags).map(([tag, seq]) => tagAt(tag, seq)),
  ];
  const read = await readPositions(kv, op, positions);
  positions.forEach((p, i) => {
    const { row, hole } = read[i];
    const ours = seqRowId(row.value) === q.id;
    if (ours) op.delete(p.row);
    if (ours || (row.versionstamp === null && hole.versionstamp === null)) {
      addHole(op, p.feed, p.seq, q.id);
    }
  });
}

/**
 * Put question `q`'s rows back in the newest feed and its tags' feeds, in `op`, and return
 * its positions as they are then (the caller stores them): each row goes back where
 * `seqs` says it was, filling the hole there; a position lost (none recorded, or another
 * question's row there) is replaced by a new one at the head of that feed, under a check
 * of the head as a creation takes it.
 *
 * @example
 * ```ts
 * import type { QuestionRecord } from "./model.ts";
 * import type { QuestionSeqEntry } from "./write.ts";
 * declare const kv: Deno.Kv;
 * declare const q: QuestionRecord;
 * declare const seqs: QuestionSeqEntry;
 * const op = kv.atomic();
 * op.set(["question_seqs", q.id], await putBackInFeeds(kv, op, q, seqs));
 * ```
 */
export async function putBackInFeeds(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  q: Pick<QuestionRecord, "id" | "tags">,
  seqs: QuestionSeqEntry,
): Promise<QuestionSeqEntry> {
  const tags = [...new Set(q.tags.map(tagKey))].filter(Boolean);
  // Position 0: none recorded (read as an absent key, then taken at the head).
  const positions = [newestAt(seqs.seq), ...tags.map((t) => tagAt(t, seqs.tags[t] ?? 0))];
  const read = await readPositions(kv, op, positions);
  const next: QuestionSeqEntry = { seq: seqs.seq, tags: {} };
  const lost: number[] = [];
  positions.forEach((p, i) => {
    const { row, hole } = read[i];
    if (p.seq > 0 && seqRowId(row.value) === q.id) {
      // Still there: a question hidden before hides took its rows out.
    } else if (p.seq > 0 && row.versionstamp === null) {
      op.set(p.row, q.id);
      if (hole.versionstamp !== null) fillHole(op, p.feed, p.seq);
    } else {
      lost.push(i);
      return;
    }
    if (i > 0) next.tags[tags[i - 1]] = p.seq;
  });
  const heads = await getAll<number>(kv, lost.map((i) => positions[i].head));
  op.check(...heads);
  lost.forEach((i, j) => {
    const seq = (typeof heads[j].value === "number" ? heads[j].value : 0) + 1;
    const at = i === 0 ? newestAt(seq) : tagAt(tags[i - 1], seq);
    op.set(at.head, seq).set(at.row, q.id);
    if (i === 0) next.seq = seq;
    else next.tags[tags[i - 1]] = seq;
  });
  return next;
}

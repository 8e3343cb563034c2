/**
 * The dense feeds (lib/community/questions/holes.ts): the newest feed and each tag's
 * feed number their questions 1…head, and every position up to the head holds exactly
 * one of a row or a hole — never both, never neither — and none lies above the head
 * (the next creation would take it and write over a row); each feed's hole counter
 * equals its holes, so a tag's total (head minus holes) is its live questions.
 *
 * Repairs: a gap becomes a hole (the question that held it is gone: ./questions.ts runs
 * first and puts back the rows of every live question); a hole under a row is removed;
 * a head below its last position is raised to it (under a check, like a creation); the
 * hole counter is set to the holes, under a check of the counter as read before the walk.
 *
 * A feed is walked in position order, its rows and holes side by side, so memory stays
 * bounded whatever its length. The tag feeds are found by skipping from tag to tag
 * through the heads, rows, holes and hole counters.
 *
 * @module
 */
import { addToCounter, commit, counterValue } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import { addHole, ALL_FEED, tagFeed } from "../../community/questions/holes.ts";
import { defineInvariant } from "./invariant.ts";
import { compareKeyParts } from "./key_order.ts";
import type { FsckReport } from "./report.ts";

const NAME = "feeds";

/** The problems this invariant reports. */
export const FEED_PROBLEMS = {
  gap: "feed position with neither a question nor a hole",
  both: "feed position with both a question and a hole",
  aboveHead: "feed head below its last position",
  malformed: "malformed feed position",
  holeCounter: "hole counter differs from the feed's holes",
} as const;

/** One dense feed: its head, its rows' prefix and its holes. */
interface Feed {
  feed: string;
  head: Deno.KvKey;
  rows: Deno.KvKey;
}

function feedOf(tag: string | null): Feed {
  return tag === null
    ? { feed: ALL_FEED, head: keys.questionSeqHead(), rows: keys.questionsBySeqPrefix() }
    : { feed: tagFeed(tag), head: keys.tagSeqHead(tag), rows: keys.questionsByTagPrefix(tag) };
}

/**
 * The distinct string parts at `prefix.length` of the keys under `prefix`, in key order,
 * one `list` of one entry per part (a skip from each part to the next).
 */
async function* distinctParts(kv: Deno.Kv, prefix: Deno.KvKey): AsyncGenerator<string> {
  let from: Deno.KvKey | null = null;
  for (;;) {
    let part: Deno.KvKeyPart | undefined;
    const selector = from ? { prefix, start: from } : { prefix };
    for await (const e of kv.list(selector, { limit: 1 })) part = e.key[prefix.length];
    // Parts after the strings (numbers, booleans) name no tag: the walk ends there.
    if (typeof part !== "string") return;
    yield part;
    from = [...prefix, part + "\u0000"];
  }
}

/** The tags named by a stream of feed ids (`tag:<tag>`), others left out. */
async function* tagsOfFeeds(feeds: AsyncGenerator<string>): AsyncGenerator<string> {
  for await (const f of feeds) if (f.startsWith("tag:")) yield f.slice(4);
}

/** Every tag that has a head, a row, a hole or a hole counter, in order, each once. */
async function* allTags(kv: Deno.Kv): AsyncGenerator<string> {
  const streams = [
    distinctParts(kv, keys.tagSeqHeadsPrefix()),
    distinctParts(kv, ["questions_by_tag"]),
    tagsOfFeeds(distinctParts(kv, ["seq_holes"])),
    tagsOfFeeds(distinctParts(kv, ["seq_hole_counts"])),
  ];
  const heads = await Promise.all(streams.map((s) => s.next()));
  for (;;) {
    let least: string | null = null;
    for (const h of heads) {
      if (!h.done && (least === null || compareKeyParts(h.value, least) < 0)) least = h.value;
    }
    if (least === null) return;
    yield least;
    for (let i = 0; i < streams.length; i++) {
      while (!heads[i].done && heads[i].value === least) heads[i] = await streams[i].next();
    }
  }
}

/** One position of a feed as walked: its row and hole entries (either may be absent). */
interface Position {
  seq: Deno.KvKeyPart;
  row: Deno.KvEntry<unknown> | null;
  hole: Deno.KvEntry<unknown> | null;
}

/** The rows and holes of a feed side by side, in position order. */
async function* positions(kv: Deno.Kv, f: Feed): AsyncGenerator<Position> {
  const rows = kv.list({ prefix: f.rows }, { batchSize: 500 })[Symbol.asyncIterator]();
  const holes = kv.list({ prefix: keys.seqHolesPrefix(f.feed) }, { batchSize: 500 })[
    Symbol.asyncIterator
  ]();
  let r = await rows.next();
  let h = await holes.next();
  while (!r.done || !h.done) {
    const rs = r.done ? null : r.value.key.at(-1)!;
    const hs = h.done ? null : h.value.key.at(-1)!;
    const c = rs === null ? 1 : hs === null ? -1 : compareKeyParts(rs, hs);
    yield {
      seq: (c <= 0 ? rs : hs)!,
      row: c <= 0 ? r.value as Deno.KvEntry<unknown> : null,
      hole: c >= 0 ? h.value as Deno.KvEntry<unknown> : null,
    };
    if (c <= 0) r = await rows.next();
    if (c >= 0) h = await holes.next();
  }
}

/**
 * Walk one feed; in a repair, fix what it finds. Returns true when it wrote anything (the
 * feed is then walked again: the hole counter is judged only on a walk that wrote
 * nothing, its versionstamp as read before the walk standing for the whole walk).
 */
async function walkFeed(
  kv: Deno.Kv,
  report: FsckReport,
  repair: boolean,
  f: Feed,
  last: boolean,
): Promise<boolean> {
  const [head, counter] = await kv.getMany<[number, Deno.KvU64]>([
    f.head,
    keys.seqHoleCount(f.feed),
  ]);
  const top = typeof head.value === "number" ? head.value : 0;
  let wrote = false;
  // A problem is reported when this walk is the last, or when a repair fixed it.
  const found = (kind: string, key: Deno.KvKey, fixed: boolean) => {
    if (fixed || last || !repair) report.found(NAME, kind, key, fixed);
  };
  const fix = async (build: (op: Deno.AtomicOperation) => void): Promise<boolean> => {
    if (!repair) return false;
    const ok = (await commit(kv, build)).ok;
    wrote ||= ok; // a lost check is tried again by the next walk
    return ok;
  };
  // Rows and holes are listed apart, so a delete between the two lists (a row turned into
  // a hole) can look like a gap or like both: a position is read again, in one snapshot,
  // before it counts.
  const reread = async (seq: number) => {
    const [row, hole] = await kv.getMany([[...f.rows, seq], keys.seqHole(f.feed, seq)]);
    return { row: row.versionstamp ? row : null, hole: hole.versionstamp ? hole : null };
  };
  const gap = async (seq: number) => {
    const row = [...f.rows, seq];
    const hole = keys.seqHole(f.feed, seq);
    const again = await reread(seq);
    if (again.row || again.hole) return;
    const fixed = await fix((op) => {
      op.check({ key: row, versionstamp: null }, { key: hole, versionstamp: null });
      addHole(op, f.feed, seq, "");
    });
    found(FEED_PROBLEMS.gap, row, fixed);
  };
  let next = 1;
  let highest = 0;
  let holes = 0;
  for await (const p of positions(kv, f)) {
    if (typeof p.seq !== "number" || !Number.isInteger(p.seq) || p.seq < 1) {
      found(FEED_PROBLEMS.malformed, (p.row ?? p.hole)!.key, false);
      continue;
    }
    for (; next < p.seq && next <= top; next++) await gap(next);
    next = p.seq + 1;
    highest = Math.max(highest, p.seq);
    const both = p.row && p.hole ? await reread(p.seq) : null;
    if (both?.row && both.hole) {
      const { row, hole } = both;
      const fixed = await fix((op) => {
        op.check(row, hole).delete(hole.key);
        addToCounter(op, keys.seqHoleCount(f.feed), -1);
      });
      found(FEED_PROBLEMS.both, hole.key, fixed);
      if (!fixed) holes++;
    } else if ((both ?? p).hole) holes++;
  }
  for (; next <= top; next++) await gap(next);
  if (highest > top) {
    // A question created during the walk takes the position after the head it moved.
    if ((await kv.get(f.head)).versionstamp !== head.versionstamp) report.moved++;
    else {
      const fixed = await fix((op) => op.check(head).set(f.head, highest));
      found(FEED_PROBLEMS.aboveHead, f.head, fixed);
    }
  }
  if (wrote || holes === counterValue(counter.value)) return wrote;
  // The counter as it is now: moved since the walk began, its writer also moved the holes.
  const now = await kv.get(counter.key);
  if (now.versionstamp !== counter.versionstamp) {
    report.moved++;
    return false;
  }
  const fixed = await fix((op) => {
    op.check(counter);
    if (holes === 0) op.delete(counter.key);
    else op.set(counter.key, new Deno.KvU64(BigInt(holes)));
  });
  report.found(NAME, FEED_PROBLEMS.holeCounter, counter.key, fixed);
  return false;
}

/** Walks of one feed in a repair: the last one only reports. */
const WALKS = 3;

async function checkFeed(kv: Deno.Kv, report: FsckReport, repair: boolean, f: Feed) {
  for (let i = 1; i <= WALKS; i++) {
    const wrote = await walkFeed(kv, report, repair && i < WALKS, f, i === WALKS);
    if (!wrote) return;
  }
}

/**
 * Heads, rows, holes and hole counters of every dense feed (see the module doc).
 *
 * @example
 * ```ts
 * import { FsckReport } from "./report.ts";
 * declare const kv: Deno.Kv;
 * const report = new FsckReport();
 * await feedsInvariant.check(kv, report); // or .repair(kv, report)
 * report.clean;
 * ```
 */
export const feedsInvariant = defineInvariant(
  NAME,
  "every position of the newest and tag feeds up to the head holds a row or a hole, not both; none above the head; hole counters",
  async (kv, report, repair) => {
    const progress = report.progress(`${NAME} feeds`);
    await checkFeed(kv, report, repair, feedOf(null));
    let n = 1;
    for await (const tag of allTags(kv)) {
      await checkFeed(kv, report, repair, feedOf(tag));
      progress.update(++n);
    }
    progress.finish(n);
  },
);

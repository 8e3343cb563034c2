/**
 * Questions (lib/community/questions/): every live question has its rows — the time
 * feed, its author's activity and, unless it is hidden by moderation, its positions record
 * (`question_seqs`) and the rows those positions name in the newest feed (holding its id;
 * a copy of the question there is the shape before compact storage 3, reported and
 * rewritten to the id) and in each of its tags' feeds — and every such row names a live
 * question that is really there (a feed row, one that is not hidden: a hidden question's
 * positions are holes until its restore, lib/community/questions/listing.ts); the question
 * total equals the live questions that are not hidden.
 *
 * Repairs derive everything from the question record. A position lost with its row (a
 * backup that caught the record but not the row) is written back; a position another
 * question holds, or one that cannot be found, is replaced by a new position at the head
 * of that feed (the question shows as newest there), taken under a check of the head
 * like a creation. A row that names no live question is deleted and its position
 * recorded as a hole (lib/community/questions/holes.ts), so the dense feed stays dense;
 * ./feeds.ts then checks the heads and holes of every feed.
 *
 * @module
 */
import { invertTime } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import { addHole, ALL_FEED, tagFeed } from "../../community/questions/holes.ts";
import { feedKey, type QuestionRecord, seqRowId, tagKey } from "../../community/questions/model.ts";
import { findSeqEntry } from "../../community/questions/seqs.ts";
import type { QuestionSeqEntry } from "../../community/questions/write.ts";
import { defineInvariant } from "./invariant.ts";
import { runPass, type Verdict } from "./pass.ts";
import { withTally } from "./tally.ts";
import { isCounted, isLive } from "./targets.ts";

const NAME = "questions";

/** The problems this invariant reports. */
export const QUESTION_PROBLEMS = {
  malformed: "malformed question record",
  noTimeRow: "live question missing from the time feed",
  noAuthorRow: "live question missing from its author's activity",
  noPositions: "live question without its feed positions record",
  noFeedRow: "live question missing from the newest feed",
  legacyFeedRow:
    "newest-feed row holding a copy of its question (the shape before compact storage 3), not its id",
  noTagRow: "live question missing from one of its tags' feeds",
  extraTag: "question still placed in the feed of a tag it no longer has",
  strayTimeRow: "time-feed row that names no live question",
  strayAuthorRow: "activity row that names no live question of that author",
  strayFeedRow: "newest-feed row that names no live, unhidden question at that position",
  strayTagRow: "tag-feed row that names no live, unhidden question of that tag at that position",
  counter: "question total differs from the live questions not hidden",
} as const;

function isQuestion(v: unknown): v is QuestionRecord {
  const q = v as QuestionRecord | null;
  return !!q && typeof q.id === "string" && Number.isFinite(q.createdAt) &&
    typeof q.author?.id === "string" && Array.isArray(q.tags);
}

function tagsOf(q: QuestionRecord): string[] {
  return [...new Set(q.tags.map(tagKey))];
}

/**
 * Where a live question's feed rows must be, and the one op that puts them there: rows
 * written back at their positions, new positions taken at the heads, rows of dropped tags
 * removed (each leaving a hole), the positions record rewritten.
 */
async function planPositions(
  kv: Deno.Kv,
  q: QuestionRecord,
  seqsEntry: Deno.KvEntryMaybe<QuestionSeqEntry>,
): Promise<Verdict[]> {
  const kinds: string[] = [];
  const stored = seqsEntry.value;
  if (!stored) kinds.push(QUESTION_PROBLEMS.noPositions);
  const found = stored ?? await findSeqEntry(kv, q);
  const want = tagsOf(q);
  const extra = Object.keys(found.tags).filter((t) => !want.includes(t));
  const rowKeys: Deno.KvKey[] = [
    found.seq > 0 ? keys.questionBySeq(found.seq) : keys.questionBySeq(0),
    ...want.map((t) => keys.questionByTag(t, found.tags[t] ?? 0)),
    ...extra.map((t) => keys.questionByTag(t, found.tags[t])),
  ];
  const rows = await kv.getMany<unknown[]>(rowKeys);
  const checks: Deno.AtomicCheck[] = [];
  const writes: ((op: Deno.AtomicOperation) => void)[] = [];
  const next: QuestionSeqEntry = { seq: found.seq, tags: {} };
  const allocate: string[] = []; // "" is the newest feed, else a tag

  const allRow = rows[0];
  if (found.seq > 0 && seqRowId(allRow.value) === q.id) {
    if (allRow.value !== q.id) {
      kinds.push(QUESTION_PROBLEMS.legacyFeedRow);
      checks.push(allRow);
      writes.push((op) => op.set(allRow.key, q.id));
    }
  } else if (found.seq > 0 && allRow.versionstamp === null) {
    kinds.push(QUESTION_PROBLEMS.noFeedRow);
    checks.push(allRow);
    writes.push((op) => op.set(allRow.key, q.id));
  } else {
    kinds.push(QUESTION_PROBLEMS.noFeedRow);
    allocate.push("");
  }
  want.forEach((t, i) => {
    const row = rows[1 + i];
    const seq = found.tags[t];
    if (seq !== undefined && row.value === q.id) next.tags[t] = seq;
    else if (seq !== undefined && row.versionstamp === null) {
      kinds.push(QUESTION_PROBLEMS.noTagRow);
      checks.push(row);
      writes.push((op) => op.set(row.key, q.id));
      next.tags[t] = seq;
    } else {
      kinds.push(QUESTION_PROBLEMS.noTagRow);
      allocate.push(t);
    }
  });
  extra.forEach((t, i) => {
    kinds.push(QUESTION_PROBLEMS.extraTag);
    const row = rows[1 + want.length + i];
    if (row.value !== q.id) return; // the row is another question's (or gone)
    checks.push(row);
    writes.push((op) => {
      op.delete(row.key);
      addHole(op, tagFeed(t), found.tags[t], q.id);
    });
  });
  if (kinds.length === 0) return [];

  if (allocate.length > 0) {
    const headKeys = allocate.map((t) => t === "" ? keys.questionSeqHead() : keys.tagSeqHead(t));
    const heads = await kv.getMany<number[]>(headKeys);
    allocate.forEach((t, i) => {
      const head = heads[i];
      const seq = (typeof head.value === "number" ? head.value : 0) + 1;
      checks.push(head);
      writes.push((op) => op.set(head.key, seq));
      if (t === "") {
        next.seq = seq;
        writes.push((op) => op.set(keys.questionBySeq(seq), q.id));
      } else {
        next.tags[t] = seq;
        writes.push((op) => op.set(keys.questionByTag(t, seq), q.id));
      }
    });
  }
  if (JSON.stringify(stored) !== JSON.stringify(next)) {
    writes.push((op) => op.set(keys.questionSeqs(q.id), next));
  }
  // One op places every row; the first verdict carries it, the others ride along.
  const fix = (op: Deno.AtomicOperation) => {
    op.check(...checks);
    for (const w of writes) w(op);
  };
  return kinds.map((kind, i) => ({ kind, fix: i === 0 ? fix : () => {} }));
}

/** A stray row's removal; a row of a dense feed leaves a hole at its position. */
function strayVerdict(
  kind: string,
  key: Deno.KvKey,
  hole?: { feed: string; seq: number; id: string },
): Verdict[] {
  return [{
    kind,
    removes: true,
    fix: (op) => {
      op.delete(key);
      if (hole) addHole(op, hole.feed, hole.seq, hole.id);
    },
  }];
}

/**
 * Question rows, positions and total (see the module doc).
 *
 * @example
 * ```ts
 * import { FsckReport } from "./report.ts";
 * declare const kv: Deno.Kv;
 * const report = new FsckReport();
 * await questionsInvariant.check(kv, report); // or .repair(kv, report)
 * report.clean;
 * ```
 */
export const questionsInvariant = defineInvariant(
  NAME,
  "every live question has its time and author rows, and unless hidden its newest-feed and tag-feed rows; every row a live question (a feed row, one not hidden); the question total",
  (kv, report, repair) =>
    withTally({}, async (tally) => {
      await tally.snapshot(kv, ["counters"], (key) => key[1] === "questions");
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "records",
        prefix: ["questions"],
        reads: (e) => {
          const q = e.value;
          if (!isQuestion(q) || !isLive(q)) return [];
          return [
            feedKey(q),
            keys.questionByAuthor(q.author.id, invertTime(q.createdAt), q.id),
            keys.questionSeqs(q.id),
          ];
        },
        judge: async (e, got) => {
          const q = e.value;
          if (!isQuestion(q) || q.id !== e.key[1]) return [{ kind: QUESTION_PROBLEMS.malformed }];
          if (!isLive(q)) return [];
          const [time, author, seqs] = got;
          const out: Verdict[] = [];
          if (time.value !== q.id) {
            out.push({ kind: QUESTION_PROBLEMS.noTimeRow, fix: (op) => op.set(time.key, q.id) });
          }
          if (author.value !== q.id) {
            out.push({
              kind: QUESTION_PROBLEMS.noAuthorRow,
              fix: (op) => op.set(author.key, q.id),
            });
          }
          // A hidden question is in no feed (its rows are strays, judged below).
          if (isCounted(q)) {
            out.push(
              ...await planPositions(kv, q, seqs as Deno.KvEntryMaybe<QuestionSeqEntry>),
            );
          }
          return out;
        },
        counted: async (e) => {
          if (isQuestion(e.value) && isCounted(e.value)) {
            await tally.add(keys.counter("questions"));
          }
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "time feed",
        prefix: keys.questionsByTimePrefix(),
        reads: (e) => typeof e.key[2] === "string" ? [keys.question(e.key[2])] : [],
        judge: (e, [q]) => {
          const fine = isQuestion(q?.value) && isLive(q.value) && e.value === q.value.id &&
            invertTime(q.value.createdAt) === e.key[1];
          return fine ? [] : strayVerdict(QUESTION_PROBLEMS.strayTimeRow, e.key);
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "author rows",
        prefix: ["questions_by_author"],
        reads: (e) => typeof e.key[3] === "string" ? [keys.question(e.key[3])] : [],
        judge: (e, [q]) => {
          const fine = isQuestion(q?.value) && isLive(q.value) && q.value.author.id === e.key[1] &&
            invertTime(q.value.createdAt) === e.key[2];
          return fine ? [] : strayVerdict(QUESTION_PROBLEMS.strayAuthorRow, e.key);
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "newest feed",
        prefix: keys.questionsBySeqPrefix(),
        reads: (e) => {
          const id = seqRowId(e.value);
          return id ? [keys.question(id), keys.questionSeqs(id)] : [];
        },
        judge: (e, [q, seqs]) => {
          const seq = e.key[1];
          const at = (seqs?.value as QuestionSeqEntry | null)?.seq;
          const fine = isQuestion(q?.value) && isCounted(q.value) &&
            (at === undefined || at === seq);
          if (fine) return [];
          const id = seqRowId(e.value);
          const hole = typeof seq === "number" && id ? { feed: ALL_FEED, seq, id } : undefined;
          return strayVerdict(QUESTION_PROBLEMS.strayFeedRow, e.key, hole);
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "tag feeds",
        prefix: ["questions_by_tag"],
        reads: (e) =>
          typeof e.value === "string" ? [keys.question(e.value), keys.questionSeqs(e.value)] : [],
        judge: (e, [q, seqs]) => {
          const [, tag, seq] = e.key;
          const at = (seqs?.value as QuestionSeqEntry | null)?.tags?.[tag as string];
          const fine = isQuestion(q?.value) && isCounted(q.value) &&
            tagsOf(q.value).includes(tag as string) && (seqs?.value == null || at === seq);
          if (fine) return [];
          const hole = typeof tag === "string" && typeof seq === "number"
            ? { feed: tagFeed(tag), seq, id: String(e.value) }
            : undefined;
          return strayVerdict(QUESTION_PROBLEMS.strayTagRow, e.key, hole);
        },
      });
      await tally.settle(kv, report, { invariant: NAME, kind: QUESTION_PROBLEMS.counter, repair });
    }),
);

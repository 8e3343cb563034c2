/**
 * The search index (lib/search/index.ts): every question others can see has its own
 * document (`["sq", id]`), no deleted or hidden question has either document, every
 * posting a document lists exists with its key and value, every posting belongs to a
 * document that lists it, and the document frequencies (`["sd", stem]`) and statistics
 * (`["ss", …]`) equal a recount. The previous index's `["question_terms", …]` rows are
 * leftovers once the search job's backfill has ended.
 *
 * Kept apart from the other invariants on purpose: nothing else in fsck knows how search
 * is stored. Which stems a document keeps depends on the dictionary when it was written,
 * so a document is judged by what it lists, not recomputed; a missing one is planned
 * afresh, as the search job would.
 *
 * @module
 */
import { getAll } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import type { QuestionRecord } from "../../community/questions/model.ts";
import { isPublic } from "../../community/visibility.ts";
import {
  docKey,
  type DocKind,
  indexOps,
  planQuestion,
  postingKey,
  postingValue,
  questionIdOfPosting,
  type StoredDoc,
  unindexOps,
} from "../../search/index.ts";
import { defineInvariant, type Invariant } from "./invariant.ts";
import { runPass } from "./pass.ts";
import { withTally } from "./tally.ts";

const NAME = "search";

/** The problems this invariant reports. */
export const SEARCH_PROBLEMS = {
  missing: "visible question without its search document",
  leftover: "deleted or hidden question still in the search index",
  unlisted: "search document listing a posting that is missing or weighs otherwise",
  stray: "search posting that no document lists",
  counter: "search document frequency or statistic differs from a recount",
  legacy: "posting of the previous search index",
} as const;

function isQuestion(v: unknown): v is QuestionRecord {
  const q = v as QuestionRecord | null;
  return !!q && typeof q.id === "string" && typeof q.title === "string" &&
    typeof q.description === "string" && Array.isArray(q.tags);
}

function isDoc(v: unknown): v is StoredDoc {
  const d = v as StoredDoc | null;
  return !!d && Array.isArray(d.s) && Array.isArray(d.w) && d.s.length === d.w.length &&
    Number.isFinite(d.dl);
}

const KINDS: { kind: DocKind; doc: "sq" | "sr"; postings: "sp" | "sa" }[] = [
  { kind: "question", doc: "sq", postings: "sp" },
  { kind: "answers", doc: "sr", postings: "sa" },
];

/**
 * The search index (see the module doc).
 *
 * @example
 * ```ts
 * import { FsckReport } from "./report.ts";
 * declare const kv: Deno.Kv;
 * const report = new FsckReport();
 * await searchIndexInvariant.check(kv, report); // or .repair(kv, report)
 * report.clean;
 * ```
 */
export const searchIndexInvariant: Invariant = defineInvariant(
  NAME,
  "every visible question has its search document, every document's postings exist and belong to it, and term counts equal a recount",
  (kv, report, repair) =>
    withTally({}, async (tally) => {
      // Questions: visible ones have their own document; others have none.
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "questions",
        prefix: ["questions"],
        reads: (e) =>
          isQuestion(e.value)
            ? [docKey("question", e.value.id), docKey("answers", e.value.id)]
            : [],
        judge: async (e, [own, answers]) => {
          const q = e.value;
          if (!isQuestion(q) || !own) return []; // ./questions.ts reports it
          if (isPublic(q)) {
            if (own.value !== null) return [];
            const plan = await planQuestion(kv, q);
            return [{ kind: SEARCH_PROBLEMS.missing, fix: (op) => indexOps(op, plan, null) }];
          }
          if (own.value === null && answers.value === null) return [];
          return [{
            kind: SEARCH_PROBLEMS.leftover,
            fix: (op) => {
              if (isDoc(own.value)) unindexOps(op, "question", q.id, own.value);
              if (isDoc(answers.value)) unindexOps(op, "answers", q.id, answers.value);
            },
          }];
        },
      });
      for (const { kind, doc } of KINDS) {
        // Documents: of a visible question, with every posting they list; counted.
        await runPass<unknown>(kv, report, repair, {
          invariant: NAME,
          label: `${kind} documents`,
          prefix: [doc],
          reads: (e) => typeof e.key[1] === "string" ? [keys.question(e.key[1])] : [],
          judge: async (e, [q]) => {
            const id = e.key[1] as string;
            const d = e.value;
            if (!q || !isDoc(d) || !isQuestion(q.value) || !isPublic(q.value)) {
              return [{
                kind: SEARCH_PROBLEMS.leftover,
                removes: true,
                fix: (op) => isDoc(d) ? unindexOps(op, kind, id, d) : op.delete(e.key),
              }];
            }
            const want = d.s.map((s, i) => postingKey(kind, s, d.w[i], d.dl, id));
            const got = await getAll(kv, want);
            // Missing, or there with another weight (a torn restore): written as listed.
            const lost = d.s.flatMap((_, i) =>
              got[i].value === postingValue(d.w[i], d.dl) ? [] : [i]
            );
            return lost.length === 0 ? [] : [{
              kind: SEARCH_PROBLEMS.unlisted,
              fix: (op) => {
                for (const i of lost) op.set(want[i], postingValue(d.w[i], d.dl));
              },
            }];
          },
        });
      }
      // Each family of counters is snapshotted right before the walk that recounts it, after
      // the repairs above (which move them): a counter a writer moves during its walk is
      // left unjudged instead of misjudged. The documents, walked again, give the statistics.
      await tally.snapshot(kv, ["ss"]);
      for (const { kind, doc } of KINDS) {
        const [docs, len] = kind === "question"
          ? ["qdocs", "qlen"] as const
          : ["adocs", "alen"] as const;
        for await (const e of kv.list<StoredDoc>({ prefix: [doc] }, { batchSize: 500 })) {
          if (!isDoc(e.value)) continue;
          await tally.add(keys.searchStat(docs));
          await tally.add(keys.searchStat(len), e.value.dl);
        }
      }
      await tally.snapshot(kv, ["sd"]);
      for (const { kind, postings } of KINDS) {
        // Postings: each listed by its document with the same weight; counted per stem.
        await runPass<number>(kv, report, repair, {
          invariant: NAME,
          label: `${kind} postings`,
          prefix: [postings],
          reads: (e) =>
            typeof e.key[2] === "string" ? [docKey(kind, questionIdOfPosting(e.key))] : [],
          judge: (e, [d]) => {
            const stem = e.key[1] as string;
            const doc = d?.value;
            const i = isDoc(doc) ? doc.s.indexOf(stem) : -1;
            const fine = i >= 0 && (() => {
              const { w, dl } = doc as StoredDoc;
              const id = questionIdOfPosting(e.key);
              return postingKey(kind, stem, w[i], dl, id)[2] === e.key[2] &&
                e.value === postingValue(w[i], dl);
            })();
            return fine
              ? []
              : [{ kind: SEARCH_PROBLEMS.stray, removes: true, fix: (op) => op.delete(e.key) }];
          },
          counted: async (e, _got, standing) => {
            if (standing) await tally.add(keys.searchDocFrequency(e.key[1] as string));
          },
        });
      }
      await tally.settle(kv, report, { invariant: NAME, kind: SEARCH_PROBLEMS.counter, repair });
      // The previous index: unused since the ranked one; the search job deletes it.
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "previous index",
        prefix: keys.legacySearchPostings(),
        reads: () => [],
        judge: (e) => [{
          kind: SEARCH_PROBLEMS.legacy,
          removes: true,
          fix: (op) => op.delete(e.key),
        }],
      });
    }),
);

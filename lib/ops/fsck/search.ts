/**
 * The search index (lib/community/search_terms.ts): every live question has a posting
 * `["question_terms", term, invertTime(createdAt), id]` for each of its terms, and every
 * posting names a live question that has that term.
 *
 * Kept apart from the other invariants on purpose: when the search index changes, this
 * module is replaced by one for the new index (same shape, {@link Invariant}) and its
 * entry in ./invariants.ts swapped; nothing else in fsck knows how search is stored.
 *
 * A question's postings are judged together (one verdict per question, its fix writing
 * or removing every posting it lacks or must not have), under a check of the question
 * record: an edit or a delete meanwhile moves the record, and the question is judged
 * again.
 *
 * @module
 */
import { getAll, invertTime } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import type { QuestionRecord } from "../../community/questions/model.ts";
import { questionTerms } from "../../community/search_terms.ts";
import { defineInvariant, type Invariant } from "./invariant.ts";
import { runPass } from "./pass.ts";
import { isLive } from "./targets.ts";

const NAME = "search";

/** The problems this invariant reports. */
export const SEARCH_PROBLEMS = {
  missing: "live question missing postings of its terms from the search index",
  leftover: "deleted question still in the search index",
  stray: "search posting that names no live question with that term",
} as const;

function isQuestion(v: unknown): v is QuestionRecord {
  const q = v as QuestionRecord | null;
  return !!q && typeof q.id === "string" && Number.isFinite(q.createdAt) &&
    typeof q.title === "string" && typeof q.description === "string" && Array.isArray(q.tags);
}

/** Most questions whose terms are remembered while the postings are walked. */
const REMEMBERED = 1000;

/** `questionTerms` of recently seen questions (a posting walk meets each many times). */
function termCache() {
  const seen = new Map<string, Set<string>>();
  return (q: QuestionRecord, versionstamp: string): Set<string> => {
    const id = `${q.id}\u0000${versionstamp}`;
    let terms = seen.get(id);
    if (terms) {
      seen.delete(id);
    } else {
      terms = new Set(questionTerms(q));
      if (seen.size >= REMEMBERED) seen.delete(seen.keys().next().value!);
    }
    seen.set(id, terms);
    return terms;
  };
}

/**
 * The question postings of the search index (see the module doc).
 *
 * @example
 * ```ts
 * import { FsckReport } from "./report.ts";
 * declare const kv: Deno.Kv;
 * const report = new FsckReport();
 * await searchPostingsInvariant.check(kv, report); // or .repair(kv, report)
 * report.clean;
 * ```
 */
export const searchPostingsInvariant: Invariant = defineInvariant(
  NAME,
  "every live question has a search posting per term and every posting names a live question with that term",
  async (kv, report, repair) => {
    await runPass<unknown>(kv, report, repair, {
      invariant: NAME,
      label: "questions",
      prefix: ["questions"],
      reads: () => [],
      judge: async (e) => {
        const q = e.value;
        if (!isQuestion(q)) return []; // ./questions.ts reports it
        const inv = invertTime(q.createdAt);
        const postings = questionTerms(q).map((t) => keys.questionTerm(t, inv, q.id));
        const got = await getAll(kv, postings);
        if (isLive(q)) {
          const missing = got.filter((g) => g.versionstamp === null).map((g) => g.key);
          return missing.length === 0 ? [] : [{
            kind: SEARCH_PROBLEMS.missing,
            fix: (op) => {
              for (const key of missing) op.set(key, q.id);
            },
          }];
        }
        const left = got.filter((g) => g.versionstamp !== null).map((g) => g.key);
        return left.length === 0 ? [] : [{
          kind: SEARCH_PROBLEMS.leftover,
          fix: (op) => {
            for (const key of left) op.delete(key);
          },
        }];
      },
    });
    const termsOf = termCache();
    await runPass<unknown>(kv, report, repair, {
      invariant: NAME,
      label: "postings",
      prefix: ["question_terms"],
      reads: (e) => typeof e.key[3] === "string" ? [keys.question(e.key[3])] : [],
      judge: (e, [q]) => {
        const r = q?.value;
        const fine = isQuestion(r) && isLive(r) && r.id === e.value &&
          invertTime(r.createdAt) === e.key[2] &&
          termsOf(r, q.versionstamp!).has(e.key[1] as string);
        return fine
          ? []
          : [{ kind: SEARCH_PROBLEMS.stray, removes: true, fix: (op) => op.delete(e.key) }];
      },
    });
  },
);

/**
 * Seeding many questions fast for the benchmarks: big atomic batches written with the
 * domain's own `writeQuestion`, on an idle store. The write functions come in as arguments
 * so the speed bench's worker can seed a base commit's tree with that tree's own modules.
 *
 * @module
 */

/** What {@link seedQuestions} writes with (lib/community/questions/write.ts, lib/kv/keys.ts). */
export interface SeedWriters {
  writeQuestion: (
    op: Deno.AtomicOperation,
    q: {
      id: string;
      title: string;
      description: string;
      tags: string[];
      author: { id: string; name: string; avatar: string | null };
      createdBy: "user";
      createdAt: number;
      status: "active";
      discussionRounds: number;
    },
    seqs: { seq: number; tagSeqs: Map<string, number> },
    // deno-lint-ignore no-explicit-any
    search?: any,
  ) => unknown;
  keys: { questionSeqHead: () => Deno.KvKey; tagSeqHead: (tag: string) => Deno.KvKey };
  /**
   * The tree's search planner (lib/search/index.ts), when it has one: its plan is the
   * fourth argument of `writeQuestion` (trees before the ranked index take three).
   */
  planQuestion?: (
    kv: Deno.Kv,
    q: { id: string; title: string; description: string; tags: string[] },
  ) => Promise<unknown>;
}

/** What {@link seedQuestions} writes instead of its defaults. */
export interface SeedOptions {
  /** The text of question `i` (e.g. bench/search_corpus.ts). */
  text?: (i: number) => { title: string; description: string; tags: string[] };
  /** The id of question `i` (default `q-seed-<i>`), e.g. as long as real ids. */
  id?: (i: number) => string;
}

/** Mutations per op at most, the seq and tag heads included (KV allows 1000). */
const MAX_MUTATIONS = 800;

/**
 * How many mutations `write` adds to an op: it is run against a stand-in op that only
 * counts (`mutate` counts each of its mutations; `check` none).
 */
function mutationsOf(write: (op: Deno.AtomicOperation) => unknown): number {
  let n = 0;
  const counting: Deno.AtomicOperation = new Proxy({} as Deno.AtomicOperation, {
    get: (_, name) => (...args: unknown[]) => {
      if (name === "mutate") n += args.length;
      else if (name !== "check") n++;
      return counting;
    },
  });
  write(counting);
  return n;
}

/**
 * Store `count` questions (`q-seed-<i>`, one a second up to now): by default titled
 * `Seeded question <i>` with tag `topic<i mod 20>`, or with the text and ids `options` give. Batches
 * of 20 are planned together (the dictionary read before the batch, as concurrent creates
 * would) and committed in as few ops as KV's 1000-mutation limit allows — with the search
 * index, ~45 mutations for a short question, a few hundred for one that brings new words.
 *
 * @example
 * ```ts
 * import { writeQuestion } from "../lib/community/questions/write.ts";
 * import { keys } from "../lib/kv/keys.ts";
 * import { planQuestion } from "../lib/search/index.ts";
 * declare const kv: Deno.Kv;
 * await seedQuestions(kv, 1000, "u-seeder", { writeQuestion, keys, planQuestion });
 * ```
 */
export async function seedQuestions(
  kv: Deno.Kv,
  count: number,
  authorId: string,
  { writeQuestion, keys, planQuestion }: SeedWriters,
  { text, id = (i) => `q-seed-${i}` }: SeedOptions = {},
): Promise<void> {
  const BATCH = 20;
  const base = Date.now() - (count + 100) * 1000;
  const author = { id: authorId, name: "Seeder", avatar: null };
  let head = (await kv.get<number>(keys.questionSeqHead())).value ?? 0;
  const tagHeads = new Map<string, number>();
  let op = kv.atomic();
  let used = 0;
  /** Tags whose head moved since the last commit. */
  let moved = new Set<string>();
  const commit = async () => {
    op.set(keys.questionSeqHead(), head);
    for (const tag of moved) op.set(keys.tagSeqHead(tag), tagHeads.get(tag)!);
    if (!(await op.commit()).ok) throw new Error("seed batch failed");
    op = kv.atomic();
    used = 0;
    moved = new Set();
  };
  for (let start = 0; start < count; start += BATCH) {
    const batch = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const t = text?.(i) ??
        {
          title: `Seeded question ${i}`,
          description: "Seeded for the benchmark.",
          tags: [`topic${i % 20}`],
        };
      batch.push({
        id: id(i),
        title: t.title,
        description: t.description,
        tags: t.tags,
        author,
        createdBy: "user" as const,
        createdAt: base + i * 1000,
        status: "active" as const,
        discussionRounds: 0,
      });
    }
    const plans = planQuestion
      ? await Promise.all(batch.map((q) => planQuestion(kv, q)))
      : batch.map(() => undefined);
    for (const [k, q] of batch.entries()) {
      const tagSeqs = new Map(q.tags.map((tag) => [tag, (tagHeads.get(tag) ?? 0) + 1]));
      const seqs = { seq: head + 1, tagSeqs };
      const needs = mutationsOf((o) => writeQuestion(o, q, seqs, plans[k]));
      const heads = moved.size + q.tags.length + 1;
      if (used > 0 && used + needs + heads > MAX_MUTATIONS) await commit();
      writeQuestion(op, q, seqs, plans[k]);
      used += needs;
      head++;
      for (const [tag, seq] of tagSeqs) {
        tagHeads.set(tag, seq);
        moved.add(tag);
      }
    }
  }
  if (used > 0) await commit();
}

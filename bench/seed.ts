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

/**
 * Store `count` questions (`q-seed-<i>`, tags `topic0`…`topic19`, one a second up to
 * now), in batches of 20 (~45 mutations each with the search index, under the 1000-mutation limit).
 *
 * @example
 * ```ts
 * import { writeQuestion } from "../lib/community/questions/write.ts";
 * import { keys } from "../lib/kv/keys.ts";
 * declare const kv: Deno.Kv;
 * await seedQuestions(kv, 1000, "u-seeder", { writeQuestion, keys });
 * ```
 */
export async function seedQuestions(
  kv: Deno.Kv,
  count: number,
  authorId: string,
  { writeQuestion, keys, planQuestion }: SeedWriters,
): Promise<void> {
  const BATCH = 20;
  const base = Date.now() - (count + 100) * 1000;
  const author = { id: authorId, name: "Seeder", avatar: null };
  let head = (await kv.get<number>(keys.questionSeqHead())).value ?? 0;
  const tagHeads = new Map<string, number>();
  for (let start = 0; start < count; start += BATCH) {
    const op = kv.atomic();
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const tag = `topic${i % 20}`;
      const tagSeq = (tagHeads.get(tag) ?? 0) + 1;
      tagHeads.set(tag, tagSeq);
      const q = {
        id: `q-seed-${i}`,
        title: `Seeded question ${i}`,
        description: "Seeded for the benchmark.",
        tags: [tag],
        author,
        createdBy: "user" as const,
        createdAt: base + i * 1000,
        status: "active" as const,
        discussionRounds: 0,
      };
      const search = planQuestion ? await planQuestion(kv, q) : undefined;
      writeQuestion(op, q, { seq: ++head, tagSeqs: new Map([[tag, tagSeq]]) }, search);
    }
    op.set(keys.questionSeqHead(), head);
    for (const [tag, n] of tagHeads) op.set(keys.tagSeqHead(tag), n);
    if (!(await op.commit()).ok) throw new Error("seed batch failed");
  }
}

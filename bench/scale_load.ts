/**
 * The scale bench's bulk loader (bench/scale.ts): a community written through the domain's
 * own write functions — `createUser`, `createQuestion`, `addMessage`, `castVote`,
 * `toggleFollow` — so every row, index, counter, search posting, notification and fan-out
 * job is what real traffic leaves. Speed comes from concurrency, not shortcuts: many
 * question threads are in flight at once, so the domain's own batching does the rest
 * (question creates numbered and committed up to 16 an op, votes grouped up to 32 an op,
 * answer reindexing coalesced per question, fan-outs run by the job runner).
 *
 * Question `i` is deterministic (bench/search_corpus.ts's text, the same answers, voters
 * and follows in any run): ~3 answers (0–6), ~10 votes (0–20; 85 % up, 40 % on the
 * question, the rest on its answers; one per voter and target), one in three questions
 * followed by one more member. Loading resumes where a previous call stopped, so one
 * store grows 10k → 100k → 1M.
 *
 * @module
 */
import { createUser } from "../lib/auth/users.ts";
import { createQuestion } from "../lib/community/questions/write.ts";
import { addMessage } from "../lib/community/messages/write.ts";
import { castVote } from "../lib/community/votes.ts";
import { toggleFollow } from "../lib/notifications/notifications.ts";
import type { Author } from "../lib/community/questions/model.ts";
import { corpusQuestion, prng } from "./search_corpus.ts";

/** Questions per member: the member pool grows with the store. */
const QUESTIONS_PER_MEMBER = 10;
/** Spacing of question times (ms): the newest is about now. */
const QUESTION_EVERY_MS = 30_000;

/** What a load wrote, and how long it took. */
export interface LoadStats {
  questions: number;
  answers: number;
  votes: number;
  follows: number;
  users: number;
  ms: number;
}

/** The store being loaded: its members, its questions' ids (in order) and time origin. */
export interface Community {
  kv: Deno.Kv;
  members: Author[];
  questionIds: string[];
  /** The time of question 0; question i is at `origin + i · 30 s`. */
  origin: number;
}

/**
 * A community to load into `kv`, sized so that `largest` questions end about now.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const c = newCommunity(kv, 100_000);
 * await loadQuestions(c, 10_000, 64);
 * ```
 */
export function newCommunity(kv: Deno.Kv, largest: number): Community {
  return {
    kv,
    members: [],
    questionIds: [],
    origin: Date.now() - (largest + 200) * QUESTION_EVERY_MS,
  };
}

/** Members up to what `n` questions need (one per {@link QUESTIONS_PER_MEMBER}, ≥ 200). */
async function growMembers(c: Community, n: number, concurrency: number): Promise<number> {
  const want = Math.max(200, Math.ceil(n / QUESTIONS_PER_MEMBER));
  const start = c.members.length;
  const made = new Array<Author>(want - start);
  await pool(want - start, concurrency, async (k) => {
    const i = start + k;
    const name = `Member ${i}`;
    const u = await createUser(c.kv, {
      provider: "provider_a",
      name,
      image: null,
      bio: "",
      email: null,
    }, c.origin);
    made[k] = { id: u.id, name, avatar: null };
  });
  c.members.push(...made);
  return want - start;
}

/** Run `task(0..n-1)` with at most `concurrency` in flight. */
async function pool(
  n: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
}

/** `k` distinct members other than `not`, drawn with `rand`. */
function distinct(rand: () => number, members: Author[], k: number, not: Set<string>): Author[] {
  const out: Author[] = [];
  const taken = new Set(not);
  while (out.length < k && taken.size < members.length) {
    const m = members[Math.floor(rand() * members.length)];
    if (taken.has(m.id)) continue;
    taken.add(m.id);
    out.push(m);
  }
  return out;
}

/**
 * One question thread: the question, its answers (concurrently), its votes (concurrently:
 * they meet in the vote groups), maybe one more follower. Counts go into `stats`.
 */
async function loadThread(c: Community, i: number, stats: LoadStats): Promise<void> {
  const kv = c.kv;
  const rand = prng(0x5ca1e ^ Math.imul(i + 1, 0x2545f491));
  const members = c.members;
  // Each question's people are drawn from the members who existed when it was asked.
  const pool = members.slice(0, Math.max(200, Math.ceil((i + 1) / QUESTIONS_PER_MEMBER)));
  const asker = pool[Math.floor(rand() * pool.length)];
  const at = c.origin + i * QUESTION_EVERY_MS;
  const text = corpusQuestion(i);
  const q = await createQuestion(kv, {
    title: text.title,
    description: text.description,
    tags: text.tags,
    author: asker,
    createdBy: "user",
  }, { now: at });
  c.questionIds[i] = q.id;
  stats.questions++;

  const answerers = distinct(rand, pool, Math.floor(rand() * 7), new Set([asker.id]));
  const answers = await Promise.all(answerers.map(async (a, j) => {
    const content = corpusQuestion(1_000_000_000 + i * 7 + j).description;
    const r = await addMessage(kv, {
      questionId: q.id,
      author: a,
      content,
      createdBy: "user",
    }, { now: at + (j + 1) * 1_000 });
    if (!r.ok) throw new Error(`answer ${i}/${j} refused: ${r.reason}`);
    stats.answers++;
    return r.message;
  }));

  const targets = [
    { type: "question" as const, id: q.id, author: asker.id },
    ...answers.map((m) => ({ type: "message" as const, id: m.id, author: m.author.id })),
  ];
  const nVotes = Math.floor(rand() * 21);
  const used = new Set<string>();
  const votes: Promise<void>[] = [];
  for (let v = 0; v < nVotes; v++) {
    const t = answers.length === 0 || rand() < 0.4
      ? targets[0]
      : targets[1 + Math.floor(rand() * answers.length)];
    const [voter] = distinct(rand, pool, 1, new Set([t.author]));
    if (!voter || used.has(`${voter.id}/${t.id}`)) continue;
    used.add(`${voter.id}/${t.id}`);
    const voteType = rand() < 0.85 ? "up" as const : "down" as const;
    votes.push((async () => {
      const r = await castVote(kv, {
        userId: voter.id,
        targetType: t.type,
        targetId: t.id,
        voteType,
      }, at + 10_000 + v * 1_000);
      if (!r.ok) throw new Error(`vote on ${t.id} refused: ${r.reason}`);
      stats.votes++;
    })());
  }
  await Promise.all(votes);

  if (rand() < 1 / 3) {
    const [follower] = distinct(rand, pool, 1, new Set([asker.id, ...answerers.map((a) => a.id)]));
    if (follower) {
      await toggleFollow(kv, q.id, follower.id, at + 60_000);
      stats.follows++;
    }
  }
}

/**
 * Load questions `c.questionIds.length … to − 1` (their members first), `concurrency`
 * threads at a time; `progress` hears every 10 % or so.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const c = newCommunity(kv, 10_000);
 * const stats = await loadQuestions(c, 10_000, 64);
 * console.log(stats.questions / (stats.ms / 1000), "questions/s");
 * ```
 */
export async function loadQuestions(
  c: Community,
  to: number,
  concurrency: number,
  progress?: (done: number, stats: LoadStats) => void,
): Promise<LoadStats> {
  const started = performance.now();
  const from = c.questionIds.length;
  const stats: LoadStats = { questions: 0, answers: 0, votes: 0, follows: 0, users: 0, ms: 0 };
  stats.users = await growMembers(c, to, concurrency);
  const step = Math.max(1, Math.floor((to - from) / 10));
  await pool(to - from, concurrency, async (k) => {
    await loadThread(c, from + k, stats);
    if (progress && (k + 1) % step === 0) progress(from + k + 1, stats);
  });
  stats.ms = performance.now() - started;
  return stats;
}
